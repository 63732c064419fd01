import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { api } from '@/lib/api-client';
import '@/lib/i18n';
import '@/lib/theme';
import { useSession } from '@/stores/session-store';
import './styles.css';

// Starting with a token: fetch the user info and merge it in, keeping the token (SPEC.md §4).
// Failures are only logged (§8); a 401 is handled by the request layer.
if (useSession.getState().token) {
  api.session
    .get_user_info(undefined, { quiet: true })
    .then((info) => useSession.getState().setUserInfo(info))
    .catch((err: unknown) => {
      console.error('get_user_info failed', err);
      if (!useSession.getState().userInfo) useSession.setState({ fresh: true });
    });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
