import { PlatformError, type PlatformErrorKind } from './types.ts';
import type { GraphErrorEnvelope } from './graph-schemas.ts';

// Graph API failures → PlatformError (reference §15). Codes and subcodes are kept in the details
// for logs and support; services act on the kind only.

const HOUR_MS = 3_600_000;

/**
 * Limits on changes to one object, with a fixed, long window: waiting them out in-process makes
 * no sense, and they say nothing about the account's call volume.
 */
const OBJECT_LIMIT_WAITS_MS: Record<number, number> = {
  1487632: HOUR_MS, // 613: ad-set budget changed more than 4 times in an hour
  1885172: 24 * HOUR_MS, // 17: account spend cap changed more than 10 times in a day
};

/** The kind of a Graph error code (reference §15). */
export function kindOfGraphCode(code: number, subcode: number | undefined): PlatformErrorKind {
  if (code === 190) return subcode === 463 ? 'auth_expired' : 'auth_invalid';
  if (code === 102) return 'auth_invalid';
  if (code === 10 || (code >= 200 && code <= 299)) return 'permission';
  // 341 is the older "application limit" code; the reference lists it with the throttles.
  if ([4, 17, 32, 341, 613].includes(code) || (code >= 80000 && code <= 80014)) return 'rate_limited';
  // -2: an async report run failed; re-running it is the documented remedy.
  if (code === 1 || code === 2 || code === -2) return 'unavailable';
  if ((code === 100 && subcode === 33) || code === 803) return 'not_found';
  return 'invalid_request';
}

const isRetryable = (kind: PlatformErrorKind) => kind === 'rate_limited' || kind === 'unavailable';

/**
 * A Graph error envelope → PlatformError. `retryAfterMs` comes from the usage headers of the same
 * answer (when the platform said how long to wait), or from the fixed window of the throttle.
 */
export function fromGraphError(envelope: GraphErrorEnvelope, opts: { retryAfterMs?: number; traceId?: string }): PlatformError {
  const e = envelope.error;
  const kind = kindOfGraphCode(e.code, e.error_subcode);
  const fixedWait = e.error_subcode === undefined ? undefined : OBJECT_LIMIT_WAITS_MS[e.error_subcode];
  const retryAfterMs = kind === 'rate_limited' ? (fixedWait ?? opts.retryAfterMs) : undefined;
  return new PlatformError(kind, e.message || `Graph API error ${e.code}`, {
    retryable: isRetryable(kind),
    code: e.code,
    subcode: e.error_subcode,
    retryAfterMs,
    fbtraceId: e.fbtrace_id ?? opts.traceId,
    userTitle: e.error_user_title,
    userMessage: e.error_user_msg,
    ...(e.error_data !== undefined && { data: parseErrorData(e.error_data) }),
  });
}

/** `error_data` arrives as JSON text or as an object (reference §15). */
function parseErrorData(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Whether a throttle concerns changes to one object rather than the volume of calls. */
export function isObjectLimit(error: PlatformError): boolean {
  return error.kind === 'rate_limited' && error.details.subcode !== undefined && error.details.subcode in OBJECT_LIMIT_WAITS_MS;
}

/** An HTTP failure without a Graph envelope (a proxy page, an empty 502). */
export function fromHttpStatus(status: number, traceId: string | undefined): PlatformError {
  const kind: PlatformErrorKind = status === 429 ? 'rate_limited' : status >= 500 ? 'unavailable' : status === 404 ? 'not_found' : 'invalid_request';
  return new PlatformError(kind, `Graph API answered HTTP ${status}`, { retryable: isRetryable(kind), fbtraceId: traceId });
}

/** The connection failed, was dropped, or the request timed out: nothing usable came back. */
export function fromNetworkFailure(err: unknown, timedOut: boolean): PlatformError {
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const why = timedOut ? 'timed out' : (cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : 'failed'));
  return new PlatformError('unavailable', `Graph API request ${why}`, { retryable: true });
}

/** The platform answered 2xx with something we cannot read: retrying will not change it. */
export function unexpectedAnswer(what: string, traceId: string | undefined): PlatformError {
  return new PlatformError('unavailable', `unexpected Graph API answer: ${what}`, { retryable: false, fbtraceId: traceId });
}

/** Connection errors raised before any byte of the request reached the server: safe to resend any request. */
export function wasNeverSent(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } } | undefined)?.cause?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}
