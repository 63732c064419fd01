import { AppError } from '../errors.ts';
import { PlatformError, type AdPlatformClient } from '../platform/types.ts';

/** An auth failure: the token expired or was revoked; the personal account needs a new one. */
export const isAuthFailure = (err: unknown): err is PlatformError => err instanceof PlatformError && (err.kind === 'auth_expired' || err.kind === 'auth_invalid');

/** The platform's own words, capped: its user-facing message when it gives one, else the technical one. */
export const platformDetail = (err: PlatformError) => (err.details.userMessage || err.message).slice(0, 300);

/**
 * Maps a platform failure to our error (STYLE.md §7: services map kinds to our codes); anything
 * else passes through unchanged.
 */
export function toAppError(err: unknown): unknown {
  if (!(err instanceof PlatformError)) return err;
  const reason = platformDetail(err);
  switch (err.kind) {
    case 'rate_limited':
      return new AppError('PLATFORM_RATE_LIMITED');
    case 'auth_expired':
    case 'auth_invalid':
      return new AppError('TOKEN_INVALID_DETAIL', { detail: reason });
    case 'permission':
      return new AppError('PLATFORM_PERMISSION', { reason });
    case 'unavailable':
      return new AppError('PLATFORM_UNAVAILABLE', { reason });
    default:
      return new AppError('PLATFORM_ERROR', { reason });
  }
}

/** The client, or a clear refusal when this server was built without one (tools, some tests). */
export function requirePlatform(platform: AdPlatformClient | undefined): AdPlatformClient {
  if (!platform) throw new AppError('PLATFORM_NOT_CONFIGURED');
  return platform;
}
