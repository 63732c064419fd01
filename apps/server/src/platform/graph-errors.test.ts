import { describe, expect, it } from 'vitest';
import { fromGraphError, fromHttpStatus, fromNetworkFailure, isObjectLimit, kindOfGraphCode, wasNeverSent } from './graph-errors.ts';

const envelope = (code: number, error_subcode?: number) => ({
  error: { message: `(#${code}) something`, code, error_subcode, fbtrace_id: 'TRACE1', error_user_title: 'Title', error_user_msg: 'Message' },
});

describe('Graph error codes → kinds (reference §15)', () => {
  it.each([
    [190, 463, 'auth_expired'],
    [190, 460, 'auth_invalid'],
    [190, 467, 'auth_invalid'],
    [190, undefined, 'auth_invalid'],
    [102, undefined, 'auth_invalid'],
    [10, undefined, 'permission'],
    [200, undefined, 'permission'],
    [294, undefined, 'permission'],
    [299, undefined, 'permission'],
    [4, 1504022, 'rate_limited'],
    [17, 2446079, 'rate_limited'],
    [32, undefined, 'rate_limited'],
    [341, undefined, 'rate_limited'],
    [613, 1487742, 'rate_limited'],
    [80000, 2446079, 'rate_limited'],
    [80004, 2446079, 'rate_limited'],
    [80014, undefined, 'rate_limited'],
    [1, undefined, 'unavailable'],
    [2, 1504043, 'unavailable'],
    [-2, 2490547, 'unavailable'],
    [100, 33, 'not_found'],
    [803, undefined, 'not_found'],
    [100, undefined, 'invalid_request'],
    [100, 2490408, 'invalid_request'],
    [2635, undefined, 'invalid_request'],
    [80015, undefined, 'invalid_request'],
    [300, undefined, 'invalid_request'],
  ] as const)('%i/%s → %s', (code, subcode, kind) => {
    expect(kindOfGraphCode(code, subcode)).toBe(kind);
  });
});

describe('fromGraphError', () => {
  it('keeps code, subcode, trace id and the user-facing texts', () => {
    const err = fromGraphError(envelope(100, 2490408), {});
    expect(err).toMatchObject({ kind: 'invalid_request', message: '(#100) something', retryable: false });
    expect(err.details).toMatchObject({ code: 100, subcode: 2490408, fbtraceId: 'TRACE1', userTitle: 'Title', userMessage: 'Message' });
  });

  it('marks throttles and outages retryable, with the wait the headers gave for throttles only', () => {
    expect(fromGraphError(envelope(17, 2446079), { retryAfterMs: 60_000 }).details).toMatchObject({ retryable: true, retryAfterMs: 60_000 });
    expect(fromGraphError(envelope(2), { retryAfterMs: 60_000 }).details).toMatchObject({ retryable: true, retryAfterMs: undefined });
  });

  it('knows the fixed windows of budget and spend-cap change limits', () => {
    expect(fromGraphError(envelope(613, 1487632), { retryAfterMs: 1000 }).details.retryAfterMs).toBe(3_600_000);
    expect(fromGraphError(envelope(17, 1885172), {}).details.retryAfterMs).toBe(86_400_000);
    expect(isObjectLimit(fromGraphError(envelope(613, 1487632), {}))).toBe(true);
    expect(isObjectLimit(fromGraphError(envelope(613, 1487742), {}))).toBe(false);
    expect(isObjectLimit(fromGraphError(envelope(17, 2446079), {}))).toBe(false);
  });

  it('falls back to the trace id header and to a message naming the code', () => {
    const err = fromGraphError({ error: { message: '', code: 1 } }, { traceId: 'HDR' });
    expect(err.message).toBe('Graph API error 1');
    expect(err.details.fbtraceId).toBe('HDR');
  });
});

describe('failures without a Graph envelope', () => {
  it('maps HTTP statuses', () => {
    expect(fromHttpStatus(502, undefined).kind).toBe('unavailable');
    expect(fromHttpStatus(429, undefined).kind).toBe('rate_limited');
    expect(fromHttpStatus(404, undefined).kind).toBe('not_found');
    expect(fromHttpStatus(400, undefined)).toMatchObject({ kind: 'invalid_request', retryable: false });
  });

  it('treats network failures and time-outs as transient', () => {
    const dropped = Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } });
    expect(fromNetworkFailure(dropped, false)).toMatchObject({ kind: 'unavailable', retryable: true, message: 'Graph API request UND_ERR_SOCKET' });
    expect(fromNetworkFailure(new Error('aborted'), true).message).toBe('Graph API request timed out');
  });

  it('knows which connection errors happen before anything was sent', () => {
    expect(wasNeverSent(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }))).toBe(true);
    expect(wasNeverSent(Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } }))).toBe(false);
    expect(wasNeverSent(new Error('timeout'))).toBe(false);
  });
});
