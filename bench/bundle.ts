import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { onCleanup, withTimeout } from './cleanup.ts';
import { isLoopback, type RunningServer } from './server.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The size budget for the login page's JavaScript (gzipped). */
export const LOGIN_TARGET_KB = 200;
/** TOOLCHAIN.md: "an antd login form (ConfigProvider + Form + Input + Button) 172 KB". */
export const ANTD_LOGIN_FORM_KB = 172;

export interface Chunk {
  url: string;
  file: string;
  rawBytes: number;
  gzipBytes: number;
  /** content-encoding the server sent ('' = none: the bytes travel uncompressed). */
  servedEncoding: string;
}

export interface BundleFigures {
  login: { jsGzipKB: number; jsRawKB: number; cssGzipKB: number; chunks: Chunk[] };
  index: { cumulativeJsGzipKB: number; incrementJsGzipKB: number; incrementRawKB: number; newChunks: Chunk[] };
  loginVsTarget: number;
  loginVsAntdLoginForm: number;
  blockedNonLoopback: string[];
}

/** KB here are 1000 bytes, as `vite build` prints them (and as TOOLCHAIN.md quotes them). */
export const kb = (bytes: number) => bytes / 1000;
const sum = (chunks: Chunk[], key: 'rawBytes' | 'gzipBytes') => chunks.reduce((s, c) => s + c[key], 0);

/** Records every JS and CSS response of a page, gzipping each body at level 9. */
class Collector {
  readonly js = new Map<string, Chunk>();
  readonly css = new Map<string, Chunk>();
  private pending: Promise<void>[] = [];
  private inflight = 0;
  private lastActivity = Date.now();

  constructor(page: Page) {
    page.on('request', () => {
      this.inflight++;
      this.lastActivity = Date.now();
    });
    const settled = () => {
      this.inflight = Math.max(0, this.inflight - 1);
      this.lastActivity = Date.now();
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
    page.on('response', (res) => {
      const type = res.headers()['content-type'] ?? '';
      const kind = /javascript|ecmascript/.test(type) ? this.js : type.includes('text/css') ? this.css : null;
      if (!kind || kind.has(res.url()) || res.status() !== 200) return;
      this.pending.push(
        res.body().then((body) => {
          kind.set(res.url(), {
            url: res.url(),
            file: new URL(res.url()).pathname.split('/').pop() ?? res.url(),
            rawBytes: body.length,
            gzipBytes: gzipSync(body, { level: 9 }).length,
            servedEncoding: res.headers()['content-encoding'] ?? '',
          });
        }),
      );
    });
  }

  /** Waits until no request has been in flight for `quietMs`, then for every body (bounded). */
  async idle(quietMs = 700, maxMs = 20_000): Promise<void> {
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline) {
      if (this.inflight === 0 && Date.now() - this.lastActivity >= quietMs) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await withTimeout(Promise.all(this.pending), 10_000, 'reading response bodies');
  }
}

/** Opens /login, then logs in through the form and lands on /index, summing the JS each loads. */
export async function measureBundle(server: RunningServer): Promise<BundleFigures> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', ...CHROMIUM_FLAGS] });
  const closer = onCleanup('bundle browser', () => browser.close());
  try {
    const context = await browser.newContext();
    const blocked: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (isLoopback(url)) return route.continue();
      blocked.push(url);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const collector = new Collector(page);

    await page.goto(`${server.baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('账号').waitFor();
    await collector.idle();
    const loginChunks = [...collector.js.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
    const loginCss = [...collector.css.values()];
    const seen = new Set(loginChunks.map((c) => c.url));

    await page.getByLabel('账号').fill('manager');
    await page.getByLabel('密码').fill(server.managerPassword);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL((u) => u.pathname === '/index', { timeout: 30_000 });
    await collector.idle();
    const all = [...collector.js.values()];
    const newChunks = all.filter((c) => !seen.has(c.url)).sort((a, b) => b.gzipBytes - a.gzipBytes);

    const loginGz = kb(sum(loginChunks, 'gzipBytes'));
    return {
      login: { jsGzipKB: loginGz, jsRawKB: kb(sum(loginChunks, 'rawBytes')), cssGzipKB: kb(sum(loginCss, 'gzipBytes')), chunks: loginChunks },
      index: {
        cumulativeJsGzipKB: kb(sum(all, 'gzipBytes')),
        incrementJsGzipKB: kb(sum(newChunks, 'gzipBytes')),
        incrementRawKB: kb(sum(newChunks, 'rawBytes')),
        newChunks,
      },
      loginVsTarget: loginGz / LOGIN_TARGET_KB,
      loginVsAntdLoginForm: loginGz / ANTD_LOGIN_FORM_KB,
      blockedNonLoopback: blocked,
    };
  } finally {
    await closer.now();
  }
}
