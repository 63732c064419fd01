import type { HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { uploadErrorOf, uploadIdOf } from './tus-transfer';

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
});
