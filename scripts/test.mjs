// `npm test`: install, then typecheck, lint, unit + API tests, build, and browser tests.
// With DATABASE_URL set, API and browser tests also run against that PostgreSQL server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ensureBuild, ensureInstall, log, root } from './lib.mjs';

const CHROMIUM = '/usr/bin/chromium';
const started = Date.now();
const timings = [];

function step(name, cmd, args, env = {}) {
  const t0 = Date.now();
  log(`${name}…`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push([name, Date.now() - t0, res.status === 0]);
  if (res.status !== 0) {
    summary();
    log(`FAILED: ${name}`);
    process.exit(res.status ?? 1);
  }
}

function summary() {
  for (const [name, ms, ok] of timings) log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${(ms / 1000).toFixed(1)} s)`);
  log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Browser tests need Debian's Chromium (and a CJK font); install them when missing and we can. */
function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || spawnSync('which', ['apt-get']).status !== 0) return false;
  log('installing Chromium from Debian packages (apt-get install chromium fonts-wqy-microhei)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-wqy-microhei'], { stdio: 'inherit', env });
  if (install().status !== 0) {
    // The package lists may be missing or stale on a fresh machine.
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    install();
  }
  return fs.existsSync(CHROMIUM);
}

ensureInstall();
const hasChromium = ensureChromium();

for (const ws of ['packages/contracts', 'packages/meta-sim', 'apps/server', 'apps/web', 'e2e', 'bench']) {
  step(`typecheck ${ws}`, 'npx', ['tsc', '--noEmit', '-p', ws]);
}
step('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
step('unit: contracts', 'npx', ['vitest', 'run', '--root', 'packages/contracts']);
step('simulator (Graph API over HTTP)', 'npx', ['vitest', 'run', '--root', 'packages/meta-sim']);
step('unit: web screens', 'npx', ['vitest', 'run', '--root', 'apps/web']);
step(`API tests (PGlite${process.env.DATABASE_URL ? ' + PostgreSQL' : ''})`, 'npx', ['vitest', 'run', '--root', 'apps/server']);
ensureBuild();
if (!hasChromium) {
  summary();
  log(`FAILED: browser tests need ${CHROMIUM}; install it with: apt-get install -y chromium fonts-wqy-microhei`);
  process.exit(1);
}
step('browser tests (Chromium, PGlite)', 'npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts'], { E2E_DB: 'pglite' });
if (process.env.DATABASE_URL) {
  step('browser tests (Chromium, PostgreSQL)', 'npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts'], { E2E_DB: 'pg' });
}
summary();
