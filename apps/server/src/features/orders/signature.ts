import { createHmac, timingSafeEqual } from 'node:crypto';

// The order webhook's signature (API.md "Orders"): `X-Signature: t=<unix seconds>,v1=<hex>[,v1=…]`,
// hex = lower-case HMAC-SHA256 of `<t>.<raw body bytes>` keyed by the site's webhook secret.

/** Seconds `t` may be from the server clock, either way. */
export const SIGNATURE_WINDOW_SECONDS = 300;

export type SignatureCheck = 'ok' | 'missing' | 'invalid' | 'stale';

export function signatureHex(secret: string, t: number, body: Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** A header a site would send (tests, the simulator registration check). */
export function signatureHeader(secret: string, t: number, body: Buffer): string {
  return `t=${t},v1=${signatureHex(secret, t, body)}`;
}

/**
 * Checks a header against the secrets that are valid now (current, and the previous one during
 * its grace period). A valid `v1` with `t` outside the window is `stale`, so a sender can tell a
 * clock problem from a key problem; any other failure is `invalid`.
 */
export function verifySignature(header: string | string[] | undefined, body: Buffer, secrets: string[], nowMs: number): SignatureCheck {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text || !text.trim()) return 'missing';
  let t: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value) && t === undefined) t = Number(value);
    // Only well-formed entries are compared (a bounded number of them, each 32 bytes).
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value) && candidates.length < 8) candidates.push(Buffer.from(value, 'hex'));
  }
  if (t === undefined || !candidates.length) return 'invalid';
  const valid = secrets.some((secret) => {
    const expected = Buffer.from(signatureHex(secret, t, body), 'hex');
    return candidates.some((c) => timingSafeEqual(c, expected));
  });
  if (!valid) return 'invalid';
  return Math.abs(Math.floor(nowMs / 1000) - t) <= SIGNATURE_WINDOW_SECONDS ? 'ok' : 'stale';
}
