// Screenshots for review (not committed): BASE=http://127.0.0.1:8090 node e2e/.shot.mjs <account> <password> zh|en [dark] /path1 /path2 …
// Writes /tmp/shots/<lang>-<theme>-<path>.png. Run from the repository root (uses e2e's playwright-core).
import { chromium } from 'playwright-core';
import crypto from 'node:crypto';
import fs from 'node:fs';
const [account, pw, lang, ...rest] = process.argv.slice(2);
const dark = rest[0] === 'dark';
const paths = dark ? rest.slice(1) : rest;
const base = process.env.BASE ?? 'http://127.0.0.1:8090';
const res = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account, pwd: crypto.createHash('md5').update(pw).digest('hex') }) });
const body = await res.json();
if (body.code !== 0) throw new Error(JSON.stringify(body));
const { token, ...userInfo } = body.data;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
const page = await browser.newPage({ viewport: { width: Number(process.env.W ?? 1440), height: 900 } });
await page.goto(`${base}/api/health`);
await page.evaluate(([u, s]) => { localStorage.setItem('user-store', u); localStorage.setItem('settings', s); },
  [JSON.stringify({ state: { token, userInfo }, version: 1 }), JSON.stringify({ state: { isDark: dark, locale: lang === 'en' ? 'en' : 'zh-cn' }, version: 1 })]);
fs.mkdirSync('/tmp/shots', { recursive: true });
for (const p of paths) {
  await page.goto(`${base}${p}`);
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(Number(process.env.WAIT ?? 2500));
  const file = `/tmp/shots/${lang}-${dark ? 'dark' : 'light'}-${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
  await page.screenshot({ path: file, fullPage: process.env.FULL === '1' });
  console.log(file);
}
await browser.close();
