import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './test/build-test-app.ts';

// The built web app as the server serves it: the build writes .gz and .br beside index.html.
describe('the web app at /', () => {
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-web-'));
  const html = '<!doctype html><title>广告投放系统</title>';
  fs.writeFileSync(path.join(web, 'index.html'), html);
  fs.writeFileSync(path.join(web, 'index.html.gz'), 'gzip bytes');
  fs.writeFileSync(path.join(web, 'index.html.br'), 'brotli bytes');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { webDist: web } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  it.each([[{}], [{ 'accept-encoding': 'identity' }]])('is the page, not a refused directory listing, without a compressed encoding (%j)', async (headers) => {
    for (const url of ['/', '/index', '/sys/accounts']) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(html);
    }
  });

  it('sends the pre-compressed page to clients that take it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body).toBe('brotli bytes');
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
  });
});

describe('demo covers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('are drawn by the server for the demo dramas, without login, and nothing else is', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/demo/covers/D1001.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toMatch(/^<svg [^>]*aria-label="总裁的替身新娘"/);
    expect(res.body).toContain('D1001 · ZH');
    // The stored cover address names PUBLIC_URL; a browser on another address of the server still loads it.
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Titles are escaped: the apostrophe of an English title does not break the markup.
    expect((await t.app.inject({ method: 'GET', url: '/demo/covers/E2001.svg' })).body).toContain('The Billionaire’s Secret');
    expect((await t.app.inject({ method: 'GET', url: '/demo/covers/X9999.svg' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/demo/covers/..%2Fpackage.json' })).statusCode).toBe(404);
  });
});
