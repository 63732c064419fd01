import { endpoints } from '@ads/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * /personal-accounts/oauth_start: the Facebook login dialog URL, bound to the caller for 10
 * minutes. The callback brings the browser back to /operation/auth?connected=<id> or ?error=….
 */
export function useOauthStart() {
  return useMutation({
    mutationFn: () => api.call(endpoints.personalAccounts.oauth_start, {}),
  });
}
