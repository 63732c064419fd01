import { createHmac } from 'node:crypto';

// The order webhook's signature (API.md "Orders"): `X-Signature: t=<unix seconds>,v1=<hex>`,
// hex = lower-case HMAC-SHA256 of `<t>.<raw body bytes>` keyed by the site's webhook secret.

export function signatureHex(secret: string, t: number, body: Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

export function signatureHeader(secret: string, t: number, body: Buffer): string {
  return `t=${t},v1=${signatureHex(secret, t, body)}`;
}
