import http from 'node:http';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, CHROMIUM_FLAGS, kb } from './bundle.ts';
import { onCleanup, withTimeout } from './cleanup.ts';
import { assertLoopback, freePort, HOST, isLoopback } from './server.ts';

export interface LighthouseFigures {
  url: string;
  /** 0–100. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
  totalByteWeightKB: number;
  /** Lighthouse's "opportunities" with the most estimated savings (ms on the simulated phone). */
  opportunities: { id: string; title: string; savingsMs: number; savingsKB: number }[];
  /** Main-thread time by category on the simulated phone (ms). */
  mainThread: { group: string; ms: number }[];
  nonLoopbackRequests: string[];
  runMs: number;
}

export interface LighthouseComparison {
  login: LighthouseFigures;
  baseline: LighthouseFigures;
  /** login / baseline; null where the baseline is 0 (TBT of a trivial page usually is). */
  ratios: { score: number | null; fcp: number | null; lcp: number | null; tbt: number | null };
}

/** The baseline page: a trivial HTML document, as cheap as a page can be. */
const TRIVIAL_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>baseline</title></head><body><h1>Baseline</h1><p>A static page with no script.</p></body></html>`;

async function startTrivialServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(TRIVIAL_HTML);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve());
  });
  const handle = onCleanup(
    'baseline http server',
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://${HOST}:${port}/`, close: handle.now };
}

const num = (v: number | undefined | null) => (typeof v === 'number' && Number.isFinite(v) ? v : NaN);

async function audit(port: number, url: string): Promise<LighthouseFigures> {
  assertLoopback(url);
  const started = performance.now();
  const result = await withTimeout(
    lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }),
    120_000,
    `lighthouse ${url}`,
  );
  if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const a = lhr.audits;
  const value = (id: string) => num(a[id]?.numericValue);

  const opportunities = Object.values(a)
    .map((x) => {
      const d = x.details as { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number } | undefined;
      return { id: x.id, title: x.title, savingsMs: d?.overallSavingsMs ?? 0, savingsKB: kb(d?.overallSavingsBytes ?? 0), type: d?.type };
    })
    .filter((o) => o.type === 'opportunity' && (o.savingsMs > 0 || o.savingsKB > 0))
    .sort((x, y) => y.savingsMs - x.savingsMs || y.savingsKB - x.savingsKB)
    .slice(0, 4)
    .map(({ type: _type, ...o }) => o);

  const breakdown = (a['mainthread-work-breakdown']?.details as { items?: { groupLabel?: string; group?: string; duration?: number }[] } | undefined)?.items ?? [];
  const mainThread = breakdown
    .map((i) => ({ group: i.groupLabel ?? i.group ?? '?', ms: i.duration ?? 0 }))
    .sort((x, y) => y.ms - x.ms)
    .slice(0, 4);

  const requests = (a['network-requests']?.details as { items?: { url?: string }[] } | undefined)?.items ?? [];
  const nonLoopbackRequests = requests.map((r) => r.url ?? '').filter((u) => u && !isLoopback(u));

  return {
    url,
    score: Math.round(num(lhr.categories.performance?.score) * 100),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    speedIndexMs: value('speed-index'),
    totalByteWeightKB: kb(value('total-byte-weight')),
    opportunities,
    mainThread,
    nonLoopbackRequests,
    runMs: performance.now() - started,
  };
}

const ratio = (x: number, y: number) => (y > 0 && Number.isFinite(x) ? x / y : null);

/** Lighthouse (default config = mobile preset, simulated throttling) on /login and on a trivial page. */
export async function measureLighthouse(baseUrl: string): Promise<LighthouseComparison> {
  process.env.CHROME_PATH = CHROMIUM;
  const trivial = await startTrivialServer();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', ...CHROMIUM_FLAGS],
    logLevel: 'silent',
  });
  const killer = onCleanup('lighthouse chrome', async () => {
    chrome.kill();
  });
  try {
    // One Chromium for both; Lighthouse resets storage and cache before each navigation.
    const baseline = await audit(chrome.port, trivial.url);
    const login = await audit(chrome.port, `${baseUrl}/login`);
    return {
      login,
      baseline,
      ratios: {
        score: ratio(login.score, baseline.score),
        fcp: ratio(login.fcpMs, baseline.fcpMs),
        lcp: ratio(login.lcpMs, baseline.lcpMs),
        tbt: ratio(login.tbtMs, baseline.tbtMs),
      },
    };
  } finally {
    await killer.now();
    await trivial.close();
  }
}
