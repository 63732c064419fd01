// Dependency-free helpers for `npm start` / `npm test` on a fresh clone (only Node.js and npm needed).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function log(msg) {
  process.stdout.write(`\x1b[36m[ads]\x1b[0m ${msg}\n`);
}

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (res.status !== 0) {
    log(`failed: ${cmd} ${args.join(' ')}`);
    process.exit(res.status ?? 1);
  }
}

/** Installs dependencies when node_modules is missing or package-lock.json changed since the last install. */
export function ensureInstall() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.ads-install-hash');
  const hash = createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return;
  // A manual `npm install` leaves npm's own hidden lockfile newer than ours: that counts too.
  const hidden = path.join(root, 'node_modules', '.package-lock.json');
  if (fs.existsSync(hidden) && fs.statSync(hidden).mtimeMs >= fs.statSync(lock).mtimeMs) {
    fs.writeFileSync(stamp, hash);
    return;
  }
  log('installing dependencies (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
  fs.writeFileSync(stamp, hash);
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const st = fs.statSync(target);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds the web app when its sources (or the shared contracts) are newer than the last build. */
export function ensureBuild({ force = false } = {}) {
  const web = path.join(root, 'apps', 'web');
  const stamp = path.join(web, 'dist', '.build-stamp');
  const sources = Math.max(
    newestMtime(path.join(web, 'src')),
    newestMtime(path.join(web, 'public')),
    newestMtime(path.join(web, 'index.html')),
    newestMtime(path.join(web, 'vite.config.ts')),
    newestMtime(path.join(root, 'packages', 'contracts', 'src')),
    newestMtime(path.join(root, 'package-lock.json')),
  );
  if (!force && fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= sources) return;
  log('building the web app…');
  run('npm', ['run', 'build', '-w', 'apps/web']);
  fs.writeFileSync(stamp, new Date().toISOString());
}

/** Runs a long-lived child, passing signals through, and exits with its code. */
export function supervise(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return child;
}
