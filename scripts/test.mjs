// `npm test`: install, then typecheck, lint, unit + API tests, build, and browser tests.
// With DATABASE_URL set, API and browser tests also run against that PostgreSQL server.
import { spawn, spawnSync } from 'node:child_process';
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

/**
 * Runs single-threaded checks (tsc, eslint) two at a time: one alone leaves a core idle. Each one's
 * output is printed whole when it ends, so the log stays readable; the first failure stops the run
 * after the others have ended.
 */
async function parallelSteps(steps, lanes = 2) {
  const queue = [...steps];
  const failed = [];
  const runOne = ([name, cmd, args]) =>
    new Promise((resolve) => {
      const t0 = Date.now();
      const child = spawn(cmd, args, { cwd: root, env: process.env });
      const out = [];
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
      child.on('close', (code) => {
        const ok = code === 0;
        timings.push([name, Date.now() - t0, ok]);
        log(`${name}${ok ? '' : ' FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        if (out.length) process.stdout.write(Buffer.concat(out));
        if (!ok) failed.push(name);
        resolve();
      });
    });
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await runOne(next);
  };
  log(`${steps.map(([name]) => name).join(', ')} (${lanes} at a time)…`);
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failed.length) {
    summary();
    log(`FAILED: ${failed.join(', ')}`);
    process.exit(1);
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

// The longest first, so the two lanes end together.
await parallelSteps([
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ...['apps/server', 'apps/web', 'bench', 'packages/contracts', 'packages/meta-sim', 'e2e'].map((ws) => [`typecheck ${ws}`, 'npx', ['tsc', '--noEmit', '-p', ws]]),
]);
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
