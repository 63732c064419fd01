import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock.ts';
import type { SecretBox } from './crypto.ts';

/**
 * Short-lived signed URLs for files a browser loads without headers (<img>, <video>): the path
 * plus `exp` (epoch seconds) and `sig` (HMAC-SHA256 of path and exp, base64url). The key derives
 * from the server's encryption key (lib/crypto.ts), so every process of an installation accepts
 * the URLs of the others. Whoever holds a URL may fetch the file until it expires: URLs are only
 * handed to callers allowed to see the file.
 */
export interface UrlSigner {
  /** `path?exp=…&sig=…`. */
  sign(path: string): Promise<string>;
  /** Whether the query carries a valid, unexpired signature for this exact path. */
  verify(path: string, query: { exp?: unknown; sig?: unknown }): Promise<boolean>;
}

/** A URL lives at least this long… */
export const SIGNED_URL_TTL_S = 3600;
/** …and expiries are rounded up to this step, so one file keeps one URL for a while and browsers cache it. */
const EXP_STEP_S = 600;

export function createUrlSigner({ secrets, clock, purpose = 'material-files' }: { secrets: SecretBox; clock: Clock; purpose?: string }): UrlSigner {
  let key: Promise<Buffer> | undefined;
  const keyOf = () => {
    key ??= secrets.macKey(purpose).catch((err: unknown) => {
      key = undefined;
      throw err;
    });
    return key;
  };
  const mac = (k: Buffer, path: string, exp: number) => createHmac('sha256', k).update(`${path}\n${exp}`).digest().subarray(0, 18);

  return {
    async sign(path) {
      const now = Math.floor(clock.now().getTime() / 1000);
      const exp = Math.ceil((now + SIGNED_URL_TTL_S) / EXP_STEP_S) * EXP_STEP_S;
      const sig = mac(await keyOf(), path, exp).toString('base64url');
      return `${path}?exp=${exp}&sig=${sig}`;
    },
    async verify(path, query) {
      const exp = typeof query.exp === 'string' && /^\d{1,12}$/.test(query.exp) ? Number(query.exp) : NaN;
      const sig = typeof query.sig === 'string' && /^[A-Za-z0-9_-]{24}$/.test(query.sig) ? Buffer.from(query.sig, 'base64url') : null;
      if (!sig || !Number.isFinite(exp)) return false;
      if (exp * 1000 < clock.now().getTime()) return false;
      const expected = mac(await keyOf(), path, exp);
      return sig.length === expected.length && timingSafeEqual(sig, expected);
    },
  };
}
