import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driver, freshDatabase } from '../test/build-test-app.ts';
import { lockDataDir, type Database } from './database.ts';
import { seedDemoCompany } from './demo.ts';
import { migrateToLatest } from './migrate.ts';
import { seedInitialUsers } from './seed.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe(`database (${driver})`, () => {
  it('hands back the same JavaScript types on both drivers', async () => {
    const row = await sql<{ n: unknown; big: unknown; num: unknown; d: unknown; ts: unknown; arr: unknown; j: unknown }>`
      select count(*) as n, 9007199254740::int8 as big, 12.50::numeric as num, date '2026-11-01' as d,
             timestamptz '2026-11-01T08:00:00Z' as ts, array['a','b']::text[] as arr, '{"a":1}'::jsonb as j`.execute(database.db);
    const r = row.rows[0]!;
    expect(r.n).toBe(0 + Number(r.n));
    expect(typeof r.n).toBe('number');
    expect(r.big).toBe(9007199254740);
    expect(r.num).toBe(12.5);
    expect(r.d).toBe('2026-11-01');
    expect(r.ts).toEqual(new Date('2026-11-01T08:00:00Z'));
    expect(r.arr).toEqual(['a', 'b']);
    expect(r.j).toEqual({ a: 1 });
  });

  it('migrates idempotently', async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('seeds admin and manager once, even when two starts race', async () => {
    const [a, b] = await Promise.all([
      seedInitialUsers(database.db, { adminPassword: 'admin-pass-1' }),
      seedInitialUsers(database.db, { adminPassword: 'admin-pass-1' }),
    ]);
    const seeded = [...a, ...b];
    expect(seeded.map((s) => s.account).sort()).toEqual(['admin', 'manager']);
    expect(seeded.find((s) => s.account === 'admin')).toMatchObject({ password: 'admin-pass-1', generated: false });
    expect(seeded.find((s) => s.account === 'manager')!.password).toMatch(/^[A-Za-z0-9]{12}$/);
    const users = await database.db.selectFrom('users').select(['account', 'is_admin']).orderBy('id').execute();
    expect(users).toEqual([
      { account: 'admin', is_admin: 9 },
      { account: 'manager', is_admin: 1 },
    ]);
    expect(await seedInitialUsers(database.db, {})).toEqual([]);
  });

  it('fills the demo company once', async () => {
    const first = await seedDemoCompany(database.db, 'demo-pass-1');
    expect(first?.accounts).toContain('zhangwei');
    expect(await seedDemoCompany(database.db)).toBeNull();
    const leaders = await database.db.selectFrom('departments').select('leader_id').where('leader_id', 'is not', null).execute();
    expect(leaders.length).toBeGreaterThanOrEqual(4);
    // Roles grant exactly their paths: whole groups are stored with their pages; authorization work sees the company's assets.
    const roles = Object.fromEntries((await database.db.selectFrom('roles').select(['name', 'paths', 'asset_scope']).execute()).map((r) => [r.name, r]));
    expect(roles['授权运营']).toMatchObject({ asset_scope: 'company' });
    expect(roles['授权运营']!.paths).toEqual(expect.arrayContaining(['/auth', '/auth/personage', '/operation', '/operation/auth', '/operation/account']));
    expect(roles['投手']).toMatchObject({ asset_scope: 'own' });
    expect(roles['投手']!.paths).toEqual(expect.arrayContaining(['/advertising', '/advertising/post', '/material/upload', '/analyse/landing']));
    expect(roles['人事']!.paths).toEqual(['/index', '/sys', '/sys/accounts', '/sys/department']);
  });

  it('keeps the audit log append-only', async () => {
    await expect(sql`update audit_logs set action = 'x'`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_logs`.execute(database.db)).rejects.toThrow(/append-only/);
  });
});

describe('DATA_DIR lock', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-lock-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('refuses a directory whose owner process is alive, naming it and the way out', () => {
    const dir = tmp();
    const owner = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(path.join(dir, 'server.lock'), String(owner.pid));
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by another server process \\(pid ${owner.pid}\\).*DATABASE_URL`, 's'));
    } finally {
      owner.kill();
    }
  });

  it('takes over a stale lock and releases it', () => {
    const dir = tmp();
    const dead = spawnSync('true').pid;
    fs.writeFileSync(path.join(dir, 'server.lock'), String(dead));
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
  });
});
