import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { driver } from './test/build-test-app.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-main-'));
const children: ChildProcess[] = [];

function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', INIT_MANAGER_PASSWORD: 'manager-pass' },
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (re: RegExp) => {
    for (let i = 0; i < 2400 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 50));
    return re.test(out);
  };
  return { child, output: () => out, exited, waitFor };
}

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// One run is enough: this is about the embedded database's directory, whatever the API tests use.
describe.runIf(driver === 'pglite')('the server process', () => {
  it('owns its DATA_DIR: a second server gets a clear error, and a graceful stop keeps the data and frees it', async () => {
    const first = start();
    expect(await first.waitFor(/listening on/)).toBe(true);
    expect(first.output()).toContain('Initial account "manager" created with the configured password');
    expect(first.output()).toMatch(/Initial account "admin" created with password: [A-Za-z0-9]{12}/);
    // Whom to log in as, with the password generated just now and the configured one named, not echoed.
    expect(await first.waitFor(/A forgotten password/)).toBe(true);
    const admin = /Initial account "admin" created with password: (\S+)/.exec(first.output())![1]!;
    expect(first.output()).toMatch(/log in as:\n\s+admin\s+超级管理员 — super admin: .*; password: (\S+)/);
    expect(first.output()).toContain(`password: ${admin}\n`);
    expect(first.output()).toMatch(/manager\s+管理员 — manager: .*; password: INIT_MANAGER_PASSWORD/);

    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by another server process \(pid \d+\)/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    const third = start();
    expect(await third.waitFor(/listening on/)).toBe(true);
    // Same database: nothing seeded again.
    expect(third.output()).not.toContain('Initial account');
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 360_000);
});
