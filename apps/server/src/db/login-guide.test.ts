import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { seedDemoCompany } from './demo.ts';
import { loginGuide, type GuideInput } from './login-guide.ts';
import { seedInitialUsers } from './seed.ts';

// The start log says whom to log in as, with which role, and the passwords it knows.
let t: TestApp;
const base: GuideInput = { url: 'http://localhost:3000', seeded: [], initAdminPasswordSet: false, initManagerPasswordSet: false, demo: false, demoPasswordCreated: null, demoPasswordSet: false };

beforeAll(async () => {
  t = await buildTestApp();
  // A first start: no user yet (the test app may have made some).
  await t.db.deleteFrom('users').execute();
});
afterAll(() => t.close());

describe('login guide', () => {
  it('names admin and manager with their roles, and a password generated at this start', async () => {
    const seeded = await seedInitialUsers(t.db, { managerPassword: 'manager-pass' });
    expect(seeded.map((s) => s.account)).toEqual(['admin', 'manager']);
    const text = await loginGuide(t.db, { ...base, seeded, initManagerPasswordSet: true });
    expect(text).toContain('Open http://localhost:3000 and log in as:');
    const admin = seeded.find((s) => s.account === 'admin')!;
    expect(text).toMatch(new RegExp(`admin\\s+超级管理员 — super admin: the admin area .*; password: ${admin.password}`));
    // A configured password is never echoed: the variable is named instead.
    expect(text).toMatch(/manager\s+管理员 — manager: .*; password: INIT_MANAGER_PASSWORD/);
    expect(text).not.toContain('manager-pass');
  });

  it('on a later start, points to the first start instead of a password it no longer knows; no demo lines without DEMO', async () => {
    const text = await loginGuide(t.db, base);
    expect(text).toMatch(/admin\s+超级管理员 .*; password: printed at the first start/);
    expect(text).not.toContain('Demo staff');
  });

  it('with DEMO=1 lists each demo user with role, department and leadership, and the demo password when just generated', async () => {
    const demo = await seedDemoCompany(t.db, 'demo-pass-1');
    expect(demo).not.toBeNull();
    const text = await loginGuide(t.db, { ...base, demo: true, demoPasswordCreated: 'demo-pass-1' });
    expect(text).toContain('Demo staff (DEMO=1), all with the password: demo-pass-1');
    expect(text).toMatch(/zhangwei\s+张伟 — 投手 · 短剧投放一组 · leader/);
    expect(text).toMatch(/heyun\s+何云 — 授权运营 · 综合管理部\n/);
    expect(text).toMatch(/xumin\s+徐敏 — 人事 · 综合管理部 · leader/);
    const later = await loginGuide(t.db, { ...base, demo: true, demoPasswordSet: true });
    expect(later).toContain('all with the password: DEMO_PASSWORD');
  });
});
