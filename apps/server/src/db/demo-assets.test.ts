import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRegistry } from '../jobs/registry.ts';
import { createRecordingJobs } from '../jobs/runner.ts';
import { fixedClock } from '../lib/clock.ts';
import { freshDatabase, testConfig } from '../test/build-test-app.ts';
import { testLog } from '../test/jobs.ts';
import { startTestSimulator, TEST_START, type TestSimulator } from '../test/simulator.ts';
import type { Database } from './database.ts';
import { refreshDemoCovers, seedDemoAssets } from './demo-assets.ts';
import { seedDemoMaterials } from './demo-materials.ts';
import { seedDemoCompany } from './demo.ts';
import { seedInitialUsers } from './seed.ts';

let sim: TestSimulator;
let database: Database;

beforeAll(async () => {
  sim = await startTestSimulator();
  database = await freshDatabase();
  await seedInitialUsers(database.db, { adminPassword: 'admin-pass', managerPassword: 'manager-pass' });
  await seedDemoCompany(database.db, 'demo-pass');
});
afterAll(async () => {
  await database.close();
  await sim.close();
  fs.rmSync(materialsDir, { recursive: true, force: true });
});

const materialsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-materials-'));

describe('DEMO=1 assets', () => {
  const seed = () => {
    const clock = fixedClock(TEST_START);
    return seedDemoAssets({ db: database.db, clock, config: testConfig(), jobs: createRecordingJobs({ db: database.db, clock, registry: jobRegistry }), platform: sim.platform, simulatorUrl: sim.url, log: testLog() });
  };

  it('connects a simulated personal account, syncs it, hands its ad accounts to the optimizers and creates two sites', async () => {
    const added = await seed();
    expect(added).toMatch(/36 ad accounts, 8 pages, 4 pixels/);
    const db = database.db;
    const pa = await db.selectFrom('personal_accounts as pa').innerJoin('users as u', 'u.id', 'pa.owner_user_id').select(['pa.status', 'u.account', 'u.is_leader']).executeTakeFirstOrThrow();
    expect(pa).toEqual({ status: 'valid', account: 'zhangwei', is_leader: 1 });

    const accounts = await db.selectFrom('ad_accounts').select(['currency', 'timezone_name', 'platform']).execute();
    expect(accounts).toHaveLength(36);
    expect(new Set(accounts.map((a) => a.currency))).toEqual(new Set(['USD', 'EUR', 'JPY']));
    expect(new Set(accounts.map((a) => a.timezone_name)).size).toBeGreaterThanOrEqual(3);
    expect(accounts.filter((a) => a.platform === 'ec')).toHaveLength(8);
    expect(accounts.filter((a) => a.platform === 'dj')).toHaveLength(28);

    const shares = await db.selectFrom('user_ad_accounts as ua').innerJoin('users as u', 'u.id', 'ua.user_id').select(['u.account']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('u.account').execute();
    expect(Object.fromEntries(shares.map((s) => [s.account, Number(s.n)]))).toEqual({ zhangwei: 6, lina: 6, wangfang: 6, liuyang: 5, chenjing: 5, zhaolei: 4, sunli: 4 });

    const sites = await db.selectFrom('sites').select(['id', 'platform']).orderBy('id').execute();
    expect(sites.map((s) => s.platform)).toEqual(['dj', 'ec']);
    const dramas = await db.selectFrom('dramas').select(['language', 'test_status']).execute();
    expect(dramas).toHaveLength(12);
    expect(new Set(dramas.map((d) => d.language))).toEqual(new Set(['zh', 'en', 'ja']));
    expect(new Set(dramas.map((d) => d.test_status)).size).toBe(4);
    expect(await db.selectFrom('products').select('id').execute()).toHaveLength(8);
  });

  it('gives the dramas covers this server draws, and moves old unresolvable ones here', async () => {
    const db = database.db;
    const publicUrl = testConfig().publicUrl;
    const covers = await db.selectFrom('dramas').select(['external_id', 'cover_url']).orderBy('external_id').execute();
    expect(covers.every((d) => d.cover_url === `${publicUrl}/demo/covers/${d.external_id}.svg`)).toBe(true);
    // A database seeded before: the cover pointed at a host that does not resolve.
    await db.updateTable('dramas').set({ cover_url: 'https://drama.example.com/covers/D1001.jpg' }).where('external_id', '=', 'D1001').execute();
    expect(await refreshDemoCovers(db, publicUrl)).toBe(1);
    expect(await refreshDemoCovers(db, 'http://localhost:4000')).toBe(12);
    const moved = await db.selectFrom('dramas').select('cover_url').where('external_id', '=', 'D1001').executeTakeFirstOrThrow();
    expect(moved.cover_url).toBe('http://localhost:4000/demo/covers/D1001.svg');
    await refreshDemoCovers(db, publicUrl);
  });

  it('runs once per database', async () => {
    expect(await seed()).toBeNull();
    expect(await database.db.selectFrom('personal_accounts').select('id').execute()).toHaveLength(1);
  });

  // Eleven files made and read with ffmpeg (the machine's when present: dynamically linked, each run starts ~0.2 s slower than the bundled static build).
  it('makes a library with ffmpeg through the upload ingest — dramas, products, editors, thumbnails — and queues a few pushes, once', async () => {
    const clock = fixedClock(TEST_START);
    const config = testConfig();
    const dir = path.join(materialsDir, 'store');
    const seedMaterials = () =>
      seedDemoMaterials({
        db: database.db,
        clock,
        config: { ...config, materials: { ...config.materials, uploadDir: path.join(materialsDir, 'uploads'), storage: { kind: 'local', dir } } },
        jobs: createRecordingJobs({ db: database.db, clock, registry: jobRegistry }),
        log: testLog(),
      });
    expect(await seedMaterials()).toBe('8 drama and 3 e-commerce materials, 6 pushes queued');

    const db = database.db;
    const rows = await db
      .selectFrom('materials as m')
      .innerJoin('users as e', 'e.id', 'm.editor_id')
      .select(['m.platform', 'm.kind', 'm.drama_id', 'm.product_id', 'm.language', 'm.duration_s', 'm.width', 'm.height', 'm.storage_key', 'm.thumb_key', 'e.account as editor', 'm.uploader_id', 'm.editor_id'])
      .execute();
    expect(rows).toHaveLength(11);
    const dj = rows.filter((r) => r.platform === 'dj');
    expect(dj).toHaveLength(8);
    expect(dj.every((r) => r.kind === 'video' && r.drama_id !== null && r.width === 540 && r.height === 960 && Math.abs(Number(r.duration_s) - 6) < 0.5)).toBe(true);
    expect(new Set(dj.map((r) => r.language))).toEqual(new Set(['zh', 'en', 'ja']));
    expect(new Set(rows.map((r) => r.editor))).toEqual(new Set(['zhoujie', 'wuxia', 'zhengkai']));
    expect(rows.every((r) => r.uploader_id === r.editor_id)).toBe(true);
    const ec = rows.filter((r) => r.platform === 'ec');
    expect(ec.map((r) => r.kind).sort()).toEqual(['image', 'video', 'video']);
    expect(ec.every((r) => r.product_id !== null)).toBe(true);
    // Files and thumbnails are in storage; the scratch files are gone.
    for (const r of rows) {
      expect(fs.existsSync(path.join(dir, r.storage_key))).toBe(true);
      expect(r.thumb_key && fs.existsSync(path.join(dir, r.thumb_key))).toBe(true);
    }
    expect(fs.existsSync(path.join(materialsDir, 'uploads', '.work', 'demo'))).toBe(false);

    const pushes = await db.selectFrom('material_pushes').select(['state']).execute();
    expect(pushes).toHaveLength(6);
    expect(pushes.every((p) => p.state === 'pending')).toBe(true);

    expect(await seedMaterials()).toBeNull();
    expect(await db.selectFrom('materials').select('id').execute()).toHaveLength(11);

    // A start stopped mid-way leaves the claim 'running': a fresh one is respected (another process
    // may be seeding), a stale one is taken over, and what was already taken in is not doubled.
    const claim = (updated_at: Date) => db.updateTable('app_settings').set({ value: 'running', updated_at }).where('key', '=', 'demo.materials').execute();
    await claim(new Date(Date.parse(TEST_START) - 30_000));
    expect(await seedMaterials()).toBeNull();
    await claim(new Date(Date.parse(TEST_START) - 10 * 60_000));
    expect(await seedMaterials()).toBe('8 drama and 3 e-commerce materials, 0 pushes queued');
    expect(await db.selectFrom('materials').select('id').execute()).toHaveLength(11);
    expect(await db.selectFrom('material_pushes').select('id').execute()).toHaveLength(6);
    expect((await db.selectFrom('app_settings').select('value').where('key', '=', 'demo.materials').executeTakeFirstOrThrow()).value).toBe('done');
  }, 90_000);
});
