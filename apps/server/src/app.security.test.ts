import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { md5Hex } from './lib/passwords.ts';
import { buildApp } from './app.ts';
import { buildTestApp, freshDatabase, testConfig, type TestApp } from './test/build-test-app.ts';

/** The client address the server recorded for the last failed login (the audit log keeps it). */
async function lastFailedLoginIp(t: TestApp) {
  const row = await t.db.selectFrom('audit_logs').select('ip').where('action', '=', 'session.login_failed').orderBy('id', 'desc').executeTakeFirstOrThrow();
  return row.ip;
}

async function failLogin(t: TestApp, headers: Record<string, string>, remoteAddress: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ account: 'nobody', pwd: md5Hex('x') }) });
  expect(res.json().code).toBe(-2);
}

describe('TRUST_PROXY', () => {
  describe('with TRUST_PROXY=1 (one proxy in front)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ config: { trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy } });
    });
    afterAll(() => t.close());

    it('takes the address the proxy saw, not one the client wrote at the left of X-Forwarded-For', async () => {
      await failLogin(t, { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' }, '10.0.0.1');
      expect(await lastFailedLoginIp(t)).toBe('203.0.113.9');
      await failLogin(t, { 'x-forwarded-for': '198.51.100.4' }, '10.0.0.1');
      expect(await lastFailedLoginIp(t)).toBe('198.51.100.4');
    });
  });

  describe('with the proxies given as addresses', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ config: { trustProxy: loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy } });
    });
    afterAll(() => t.close());

    it('skips trusted proxies from the right and stops at the first address that is not one', async () => {
      await failLogin(t, { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.2.3' }, '127.0.0.1');
      expect(await lastFailedLoginIp(t)).toBe('203.0.113.9');
    });

    it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
      await failLogin(t, { 'x-forwarded-for': '6.6.6.6' }, '192.0.2.50');
      expect(await lastFailedLoginIp(t)).toBe('192.0.2.50');
    });
  });

  it('reads false/0, a hop count, true as one hop, and a list of addresses or CIDRs; refuses anything else', () => {
    const read = (v: string | undefined) => loadConfig({ ...(v !== undefined && { TRUST_PROXY: v }) }).trustProxy;
    expect(read(undefined)).toBe(false);
    expect(read('')).toBe(false);
    expect(read('false')).toBe(false);
    expect(read('0')).toBe(false);
    expect(read('1')).toBe(1);
    expect(read('true')).toBe(1);
    expect(read('2')).toBe(2);
    expect(read('10.0.0.0/8, ::1,192.168.1.7, fd00::/8, loopback')).toEqual(['10.0.0.0/8', '::1', '192.168.1.7', 'fd00::/8', 'loopback']);
    for (const bad of ['yes', '10.0.0.0/33', '300.1.1.1', '-1', '1.5', '10.0.0.1,,', 'example.com']) expect(() => read(bad), bad).toThrow(/TRUST_PROXY/);
  });
});

/** Log lines (parsed JSON) written by an app built with `logStream`. */
function captureLog() {
  const lines: Record<string, any>[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } };
}

describe('request logs', () => {
  const log = captureLog();
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { logLevel: 'debug' }, logStream: log.stream });
  });
  afterAll(() => t.close());

  it('never hold the signature of a signed file URL, nor an OAuth code or state', async () => {
    const sig = 'c2VjcmV0LXNpZ25hdHVyZS12YWx1ZQ';
    log.lines.length = 0;
    await t.app.inject({ method: 'GET', url: `/api/material/file/1?exp=1893456000&sig=${sig}` });
    await t.app.inject({ method: 'GET', url: `/api/material/thumb/1?sig=${sig}&exp=1893456000` });
    await t.app.inject({ method: 'GET', url: '/api/personal-accounts/oauth_callback?code=one-time-code&state=the-state' });
    const text = JSON.stringify(log.lines);
    expect(text).not.toContain(sig);
    expect(text).not.toContain('one-time-code');
    expect(text).not.toContain('the-state');
    expect(log.lines.map((l) => l.req?.url)).toEqual(
      expect.arrayContaining(['/api/material/file/1?exp=1893456000&sig=***', '/api/material/thumb/1?sig=***&exp=1893456000', '/api/personal-accounts/oauth_callback?code=***&state=***']),
    );
  });

  it('use request ids of their own; a client-sent X-Request-Id is logged beside, shortened', async () => {
    log.lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'chosen-by-client' } });
    await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': `x${'y'.repeat(500)}\n{"forged":1}` } });
    const [first, second] = log.lines.filter((l) => l.req?.url === '/api/health');
    expect(first!.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first!.req.clientRequestId).toBe('chosen-by-client');
    expect(second!.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.reqId).not.toBe(first!.reqId);
    expect(second!.req.clientRequestId).toBe(`x${'y'.repeat(63)}`);
  });

  it('log each request once, at debug', async () => {
    log.lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(log.lines.map((l) => [l.level, l.msg, l.res?.statusCode])).toEqual([[20, 'request completed', 200]]);
    expect(log.lines[0]!.responseTime).toEqual(expect.any(Number));
  });
});

describe('request log levels', () => {
  it('at info, an ordinary request writes nothing; a 5xx writes an error and a slow request a warning', async () => {
    const database = await freshDatabase();
    /** An app logging at info, with one route that fails with 503. */
    const appWith = async (slowRequestMs?: number) => {
      const log = captureLog();
      const app = await buildApp({ config: testConfig({ logLevel: 'info' }), db: database.db, driver: database.driver, logStream: log.stream, ...(slowRequestMs !== undefined && { slowRequestMs }) });
      app.get('/__fail', (_req, reply) => reply.status(503).send('down'));
      await app.ready();
      await app.inject({ method: 'GET', url: '/api/health' });
      await app.inject({ method: 'GET', url: '/__fail' });
      await app.close();
      // Request lines only: start-up lines (which ffmpeg reads uploads) are not about requests.
      return log.lines.filter((l) => l.res !== undefined).map((l) => [l.level, l.msg, l.res?.statusCode]);
    };
    try {
      expect(await appWith()).toEqual([[50, 'request failed', 503]]);
      // Every request counts as slow here (threshold 0 ms), so no test needs to be slow.
      expect(await appWith(0)).toEqual([
        [40, 'slow request', 200],
        [50, 'request failed', 503],
      ]);
    } finally {
      await database.close();
    }
  });
});

describe('security headers', () => {
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-web-'));
  const inline = "document.documentElement.className = 'light';";
  fs.writeFileSync(path.join(web, 'index.html'), `<!doctype html><html><head><script>${inline}</script><script type="module" src="/assets/app.js"></script></head><body></body></html>`);
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { webDist: web } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  const directives = (csp: unknown) => Object.fromEntries(String(csp).split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]));

  it('are sent with API answers: nosniff, no framing, no referrer, a strict policy, no HSTS on plain http', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['script-src']?.[0]).toBe("'self'");
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-eval'");
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
  });

  it('let the web app run its inline theme script by hash, following a rebuilt index.html', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/material/upload' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(directives(page.headers['content-security-policy'])['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", sha(inline)]);
    const rebuilt = "document.documentElement.className = 'dark';";
    const file = path.join(web, 'index.html');
    fs.writeFileSync(file, `<!doctype html><html><head><script>${rebuilt}</script></head></html>`);
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const again = await t.app.inject({ method: 'GET', url: '/' });
    expect(directives(again.headers['content-security-policy'])['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", sha(rebuilt)]);
  });

  it('give the API docs their own policy (swagger-ui\'s), still refusing framing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toContain('validator.swagger.io');
    expect(csp['style-src']).toEqual(["'self'", 'https:', "'unsafe-inline'"]);
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('add HSTS and upgrade insecure requests when PUBLIC_URL is https', async () => {
    const https = await buildTestApp({ config: { publicUrl: 'https://ads.example.com' } });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(directives(res.headers['content-security-policy'])).toHaveProperty('upgrade-insecure-requests');
    } finally {
      await https.close();
    }
  });
});
