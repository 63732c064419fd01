import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createPage, createPersonalAccount, createPixel, createScopeOrg, createSite } from '../../test/factories.ts';

// Pages (主页关联) and pixels (像素管理): what each caller sees and may associate.
let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};
const acc: Record<string, number> = {};
const page: Record<string, number> = {};
const pixel: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, ['/auth/homepage', '/auth/pixel']);
  for (const [k, u] of Object.entries(org)) if (k !== 'departments') tokens[k] = await t.login((u as any).account, (u as any).password);
  acc.s1 = (await createAdAccount(t.db, { name: 'A s1', users: [org.s1.id] })).id;
  acc.s4 = (await createAdAccount(t.db, { name: 'A s4', users: [org.s4.id] })).id;
  acc.free = (await createAdAccount(t.db, { name: 'A free' })).id;

  // P1: s1's account and s4's; P2: used by s2 (a user link only); P3: s4's account only.
  page.p1 = (await createPage(t.db, { name: 'P1', ad_accounts: [acc.s1, acc.s4] })).id;
  page.p2 = (await createPage(t.db, { name: 'P2', users: [org.s2.id] })).id;
  page.p3 = (await createPage(t.db, { name: 'P3', ad_accounts: [acc.s4] })).id;
  const pa = await createPersonalAccount(t.db, { name: 'Token owner', owner_user_id: org.manager.id });
  await t.db.insertInto('personal_account_pages').values({ personal_account_id: pa.id, page_id: page.p1, tasks: ['ADVERTISE'] }).execute();

  pixel.x1 = (await createPixel(t.db, { name: 'X1', ad_accounts: [acc.s1] })).id;
  pixel.x2 = (await createPixel(t.db, { name: 'X2', ad_accounts: [acc.s4], source: 'manual' })).id;
  await createSite(t.db, { name: 'Site with X1', pixel_id: pixel.x1 });
});
afterAll(() => t.close());

const names = (res: any) => res.data.list.map((x: any) => x.name).sort();

describe('pages', () => {
  const pages = (who: string, body: object = {}) => t.call('/api/pages/list', body, { token: tokens[who] });
  const associate = (who: string, body: object) => t.call('/api/pages/associate', body, { token: tokens[who] });
  const linksOf = async (table: 'page_ad_accounts' | 'page_users', id: number) => {
    const rows = table === 'page_users' ? await t.db.selectFrom('page_users').select('user_id as id').where('page_id', '=', id).execute() : await t.db.selectFrom('page_ad_accounts').select('ad_account_id as id').where('page_id', '=', id).execute();
    return rows.map((r) => r.id).sort((a, b) => a - b);
  };

  it('shows pages associated with an ad account or user the caller sees, and only those links', async () => {
    expect(names(await pages('s1'))).toEqual(['P1']);
    expect(names(await pages('s2'))).toEqual(['P2']);
    expect(names(await pages('leader'))).toEqual(['P1', 'P2']);
    expect(names(await pages('manager'))).toEqual(['P1', 'P2', 'P3']);
    const p1 = (await pages('s1')).data.list[0];
    // s4's account on P1 is outside s1's scope: not shown.
    expect(p1.ad_accounts).toEqual([{ id: acc.s1, name: 'A s1' }]);
    expect(p1.personal_accounts).toEqual([{ id: expect.any(Number), name: 'Token owner' }]);
    expect((await pages('manager', { keyword: 'P1' })).data.list[0].ad_accounts).toHaveLength(2);
  });

  it('filters by ad account, user and personal account', async () => {
    expect(names(await pages('manager', { ad_account_id: acc.s4 }))).toEqual(['P1', 'P3']);
    expect(names(await pages('manager', { user_id: org.s2.id }))).toEqual(['P2']);
    const pa = await t.db.selectFrom('personal_accounts').select('id').where('name', '=', 'Token owner').executeTakeFirstOrThrow();
    expect(names(await pages('manager', { personal_account_id: pa.id }))).toEqual(['P1']);
  });

  it('lets staff associate their pages with their ad accounts, but not with users, nor touch others', async () => {
    expect((await associate('s1', { page_ids: [page.p1], ad_account_ids: [acc.s1], mode: 'replace' })).data).toEqual({ updated: 1 });
    // Replacing within s1's reach kept s4's link.
    expect(await linksOf('page_ad_accounts', page.p1!)).toEqual([acc.s1, acc.s4].sort((a, b) => a! - b!));
    expect((await associate('s1', { page_ids: [page.p1], user_ids: [org.s1.id], mode: 'add' })).code).toBe(403);
    expect((await associate('s1', { page_ids: [page.p3], ad_account_ids: [acc.s1], mode: 'add' })).code).toBe(403);
    expect((await associate('s1', { page_ids: [page.p1], ad_account_ids: [acc.free], mode: 'add' })).code).toBe(403);
    expect((await associate('s1', { page_ids: [999999], ad_account_ids: [], mode: 'add' })).message).toBe('主页不存在');
  });

  it('lets leaders give pages to people of their subtree; managers anything; each change audited', async () => {
    expect((await associate('leader', { page_ids: [page.p2], user_ids: [org.s3.id], mode: 'add' })).code).toBe(0);
    expect(await linksOf('page_users', page.p2!)).toEqual([org.s2.id, org.s3.id].sort((a, b) => a - b));
    expect((await associate('leader', { page_ids: [page.p2], user_ids: [org.s4.id], mode: 'add' })).code).toBe(403);
    expect((await associate('manager', { page_ids: [page.p2, page.p3], ad_account_ids: [acc.free], user_ids: [org.s4.id], mode: 'replace' })).data).toEqual({ updated: 2 });
    expect(await linksOf('page_users', page.p2!)).toEqual([org.s4.id]);
    expect(await linksOf('page_ad_accounts', page.p3!)).toEqual([acc.free]);
    const audit = await t.db.selectFrom('audit_logs').select(['before', 'after']).where('action', '=', 'page.associate').where('entity_id', '=', String(page.p3)).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit).toEqual({ before: { ad_account_ids: [acc.s4], user_ids: [] }, after: { ad_account_ids: [acc.free], user_ids: [org.s4.id] } });
  });
});

describe('pixels', () => {
  const pixels = (who: string, body: object = {}) => t.call('/api/pixels/list', body, { token: tokens[who] });
  const associate = (who: string, body: object) => t.call('/api/pixels/associate', body, { token: tokens[who] });
  const linksOf = async (id: number) =>
    (await t.db.selectFrom('pixel_ad_accounts').select(['ad_account_id', 'source']).where('pixel_id', '=', id).orderBy('ad_account_id').orderBy('source').execute()).map((r) => `${r.ad_account_id}:${r.source}`);

  it('shows pixels linked to an ad account the caller sees, found on the platform or associated here', async () => {
    expect(names(await pixels('s1'))).toEqual(['X1']);
    expect(names(await pixels('s4'))).toEqual(['X2']);
    expect(names(await pixels('manager'))).toEqual(['X1', 'X2']);
    const x1 = (await pixels('s1')).data.list[0];
    expect(x1).toMatchObject({ ad_accounts: [{ id: acc.s1, name: 'A s1' }], sites: [{ id: expect.any(Number), name: 'Site with X1' }], last_fired_at: null });
    expect(names(await pixels('manager', { ad_account_id: acc.s4 }))).toEqual(['X2']);
  });

  it('edits only our associations: the platform link stays when ours is removed', async () => {
    expect((await associate('s1', { pixel_ids: [pixel.x1], ad_account_ids: [acc.s1], mode: 'add' })).code).toBe(0);
    expect(await linksOf(pixel.x1!)).toEqual([`${acc.s1}:manual`, `${acc.s1}:platform`]);
    // Found on the platform and associated here: it shows once, as the platform's (removing ours leaves it).
    expect((await pixels('s1')).data.list[0].ad_accounts).toEqual([{ id: acc.s1, name: 'A s1', source: 'platform' }]);
    expect((await associate('s1', { pixel_ids: [pixel.x1], ad_account_ids: [acc.s1], mode: 'remove' })).code).toBe(0);
    expect(await linksOf(pixel.x1!)).toEqual([`${acc.s1}:platform`]);
    expect(names(await pixels('s1'))).toEqual(['X1']);
  });

  it('keeps associations outside the caller scope on replace, and refuses pixels and accounts outside it', async () => {
    expect((await associate('s1', { pixel_ids: [pixel.x2], ad_account_ids: [acc.s1], mode: 'add' })).code).toBe(403);
    expect((await associate('s4', { pixel_ids: [pixel.x2], ad_account_ids: [acc.s1], mode: 'add' })).code).toBe(403);
    await associate('manager', { pixel_ids: [pixel.x2], ad_account_ids: [acc.s1], mode: 'add' });
    expect((await associate('s4', { pixel_ids: [pixel.x2], ad_account_ids: [], mode: 'replace' })).code).toBe(0);
    expect(await linksOf(pixel.x2!)).toEqual([`${acc.s1}:manual`]);
    // Only associated here: marked so, since this is a link the screen can remove.
    expect((await pixels('manager', { ad_account_id: acc.s1 })).data.list.find((p: { id: number }) => p.id === pixel.x2).ad_accounts).toContainEqual({ id: acc.s1, name: 'A s1', source: 'manual' });
    expect((await associate('manager', { pixel_ids: [999999], ad_account_ids: [], mode: 'add' })).message).toBe('像素不存在');
    const audit = await t.db.selectFrom('audit_logs').select('after').where('action', '=', 'pixel.associate').where('entity_id', '=', String(pixel.x2)).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.after).toEqual({ ad_account_ids: [acc.s1] });
  });
});
