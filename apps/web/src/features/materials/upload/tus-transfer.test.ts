import type { HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { isRetryableStatus, uploadErrorOf, uploadIdOf } from './tus-transfer';

const response = (status: number, body: string): HttpResponse => ({
  getStatus: () => status,
  getHeader: () => undefined,
  getBody: () => body,
  getUnderlyingObject: () => null,
});
/** A tus-js-client DetailedError as it reaches onError. */
const detailed = (res: HttpResponse | null) => Object.assign(new Error('tus: unexpected response while creating upload'), { originalRequest: {}, originalResponse: res, causingError: null });

describe('tus wiring', () => {
  it('takes the upload id from the last path segment of the upload URL', () => {
    expect(uploadIdOf('http://localhost:8080/api/material/tus/3f9a_b-12')).toBe('3f9a_b-12');
    expect(uploadIdOf('/api/material/tus/abc/?x=1')).toBe('abc');
  });

  it("keeps the server's message from an envelope or a plain-text body", () => {
    expect(uploadErrorOf(detailed(response(413, JSON.stringify({ code: -2, message: 'The file is larger than 2 GB', data: null }))))).toEqual({
      kind: 'server',
      message: 'The file is larger than 2 GB',
      status: 413,
    });
    expect(uploadErrorOf(detailed(response(415, 'Unsupported media type: application/zip\n')))).toEqual({ kind: 'server', message: 'Unsupported media type: application/zip', status: 415 });
    expect(uploadErrorOf(detailed(response(502, '<html>Bad gateway</html>')))).toEqual({ kind: 'server', message: 'HTTP 502', status: 502 });
  });

  it('tells an ended session and a lost connection apart', () => {
    expect(uploadErrorOf(detailed(response(401, '')))).toEqual({ kind: 'session' });
    expect(uploadErrorOf(detailed(response(200, JSON.stringify({ code: 401, message: 'Login expired', data: null }))))).toEqual({ kind: 'session' });
    expect(uploadErrorOf(detailed(null))).toEqual({ kind: 'network' });
  });

  it("shows the server's quota and disk refusals at once instead of retrying them silently", () => {
    expect(uploadErrorOf(detailed(response(429, 'You have 20 unfinished uploads (at most 20). Finish or cancel some before starting more.\n')))).toEqual({
      kind: 'server',
      message: 'You have 20 unfinished uploads (at most 20). Finish or cancel some before starting more.',
      status: 429,
    });
    expect(uploadErrorOf(detailed(response(507, '服务器磁盘空间不足（剩余 1.2 GiB），暂时不能接收 3 GiB 的文件，请联系管理员\n')))).toMatchObject({ kind: 'server', status: 507 });
    expect([507, 429, 413].map(isRetryableStatus)).toEqual([false, false, false]);
    expect([0, 409, 423, 500, 502, 503].map(isRetryableStatus)).toEqual([true, true, true, true, true, true]);
  });
});

