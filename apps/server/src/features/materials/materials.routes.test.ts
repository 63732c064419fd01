import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createDrama, createProduct, createScopeOrg, createSite, createUser } from '../../test/factories.ts';
import { createMaterial } from '../../test/materials.ts';

/**
 * The library's JSON calls: lists with their filters and sort, the data scope of PRODUCT.md
 * (staff: their department and what they uploaded or edited; leaders: their department subtree;
 * managers: all), edits, deletes (refused while ads use a material) and queuing pushes.
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};
const m: Record<string, number> = {};
const md5s: Record<string, string> = {};
let dramaA: number;
let dramaB: number;
let product: number;
let accountOfS1: number;
let accountOfS4: number;

const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);
const set = (...names: string[]) => names.map((n) => m[n]!).sort((a, b) => a - b);

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, ['/material/upload']);
  for (const [name, u] of Object.entries({ manager: org.manager, leader: org.leader, s1: org.s1, s2: org.s2, s3: org.s3, s4: org.s4 })) tokens[name] = await t.login(u.account, u.password);
  const site = await createSite(t.db, { platform: 'dj' });
  const shop = await createSite(t.db, { platform: 'ec' });
  dramaA = (await createDrama(t.db, { site_id: site.id, name: 'Drama A' })).id;
  dramaB = (await createDrama(t.db, { site_id: site.id, name: 'Drama B' })).id;
  product = (await createProduct(t.db, { site_id: shop.id, name: 'Lamp' })).id;
  const { d1, d1a, d2 } = org.departments;
  const add = async (name: string, spec: Parameters<typeof createMaterial>[1]) => {
    const row = await createMaterial(t.db, spec);
    m[name] = row.id;
    md5s[name] = row.md5;
  };
  await add('m1', { uploader_id: org.s1.id, department_id: d1, file_name: 'Hook ep1.mp4', tags: ['hook', 'ep1'], language: 'en', drama_id: dramaA, size_bytes: 5000, remark: 'best opener', created_at: new Date('2026-10-31T17:00:00Z') });
  await add('m2', { uploader_id: org.s2.id, department_id: d1, file_name: 'Cliff ep2.mp4', tags: ['cliff'], language: 'es', drama_id: dramaB, size_bytes: 2000, created_at: new Date('2026-10-30T08:00:00Z') });
  await add('m3', { uploader_id: org.s3.id, department_id: d1a, file_name: 'ep3.mp4', tags: ['hook'], size_bytes: 9000, created_at: new Date('2026-10-29T08:00:00Z') });
  await add('m4', { uploader_id: org.s4.id, department_id: d2, editor_id: org.s1.id, file_name: 'edited by s1.mp4', tags: ['hook', 'cliff'], language: 'en', size_bytes: 1000, created_at: new Date('2026-10-28T08:00:00Z') });
  await add('m5', { uploader_id: org.s4.id, department_id: d2, file_name: 'd2 only.mp4', size_bytes: 3000, created_at: new Date('2026-10-27T08:00:00Z') });
  await add('m6', { uploader_id: org.manager.id, platform: 'ec', kind: 'image', file_name: 'lamp.png', product_id: product, size_bytes: 100, created_at: new Date('2026-10-26T08:00:00Z') });
  accountOfS1 = (await createAdAccount(t.db, { users: [org.s1.id] })).id;
  accountOfS4 = (await createAdAccount(t.db, { users: [org.s4.id] })).id;
});
afterAll(() => t.close());

const list = (who: string, body: Record<string, unknown> = {}) => t.call('/api/materials/list', { page: 1, page_size: 50, ...body }, { token: tokens[who]!, lang: 'en' });

describe('data scope', () => {
  it('shows staff their department and what they uploaded or edit; leaders their subtree; managers everything', async () => {
    expect(ids((await list('s1')).data.list)).toEqual(set('m1', 'm2', 'm4'));
    expect(ids((await list('s3')).data.list)).toEqual(set('m3'));
    expect(ids((await list('s4')).data.list)).toEqual(set('m4', 'm5'));
    expect(ids((await list('leader')).data.list)).toEqual(set('m1', 'm2', 'm3', 'm4'));
    const all = await list('manager');
    expect(ids(all.data.list)).toEqual(set('m1', 'm2', 'm3', 'm4', 'm5', 'm6'));
    expect(all.data.total).toBe(6);
  });

  it('answers a material outside the scope with 403 and an unknown one with "not found", in get, edit and check_hash', async () => {
    expect((await t.call('/api/materials/get', { id: m.m5 }, { token: tokens.s1! })).code).toBe(403);
    expect((await t.call('/api/materials/get', { id: 999999 }, { token: tokens.s1!, lang: 'en' })).message).toBe('The material does not exist or was deleted.');
    expect((await t.call('/api/materials/edit', { id: m.m5, remark: 'x' }, { token: tokens.s1! })).code).toBe(403);
    expect((await t.call('/api/materials/check_hash', { md5: md5s.m1 }, { token: tokens.s3! })).data).toEqual({ material: null });
    expect((await t.call('/api/materials/check_hash', { md5: md5s.m1 }, { token: tokens.s1! })).data.material.id).toBe(m.m1);
    expect((await t.call('/api/materials/check_hash', { md5: 'f'.repeat(32) }, { token: tokens.manager! })).data).toEqual({ material: null });
  });
});

describe('the list', () => {
  it('filters by keyword (name, remark, md5), kind, platform, drama, product, editor, uploader, language and tags', async () => {
    const q = async (body: Record<string, unknown>) => ids((await list('manager', body)).data.list);
    expect(await q({ keyword: 'EP' })).toEqual(set('m1', 'm2', 'm3'));
    expect(await q({ keyword: 'opener' })).toEqual(set('m1'));
    expect(await q({ keyword: md5s.m2!.toUpperCase() })).toEqual(set('m2'));
    expect(await q({ keyword: '100%_' })).toEqual([]);
    expect(await q({ kind: 'image' })).toEqual(set('m6'));
    expect(await q({ platform: 'ec' })).toEqual(set('m6'));
    expect(await q({ drama_id: dramaA })).toEqual(set('m1'));
    expect(await q({ product_id: product })).toEqual(set('m6'));
    expect(await q({ editor_id: org.s1.id })).toEqual(set('m4'));
    expect(await q({ uploader_id: org.s4.id })).toEqual(set('m4', 'm5'));
    expect(await q({ language: 'en' })).toEqual(set('m1', 'm4'));
    expect(await q({ tags: ['hook'] })).toEqual(set('m1', 'm3', 'm4'));
    expect(await q({ tags: ['hook', 'cliff'] })).toEqual(set('m4'));
  });

  it('reads upload dates in the reporting time zone (Asia/Shanghai by default)', async () => {
    const q = async (body: Record<string, unknown>) => ids((await list('manager', body)).data.list);
    // m1 was uploaded 2026-10-31T17:00Z, which is 2026-11-01 01:00 in Shanghai.
    expect(await q({ date_from: '2026-11-01' })).toEqual(set('m1'));
    expect(await q({ date_from: '2026-10-30', date_to: '2026-10-31' })).toEqual(set('m2'));
    expect(await q({ date_to: '2026-10-27' })).toEqual(set('m5', 'm6'));
  });

  it('sorts by size, name, duration and creation, and pages', async () => {
    const bySize = await list('manager', { sort_field: 'size_bytes', sort_order: 'ascend' });
    expect(bySize.data.list.map((x: any) => x.size_bytes)).toEqual([100, 1000, 2000, 3000, 5000, 9000]);
    const byName = await list('manager', { sort_field: 'file_name' });
    expect(byName.data.list[0].file_name).toBe('Cliff ep2.mp4');
    const byDuration = await list('manager', { sort_field: 'duration_s', sort_order: 'descend' });
    // Images have no duration: they come last either way.
    expect(byDuration.data.list.at(-1).id).toBe(m.m6);
    const page2 = await list('manager', { page: 2, page_size: 4, sort_field: 'created_at', sort_order: 'descend' });
    expect(page2.data).toMatchObject({ total: 6 });
    expect(ids(page2.data.list)).toEqual(set('m5', 'm6'));
  });

  it('gives each row its references, counts and signed URLs in the contract shape', async () => {
    const row = (await list('manager', { keyword: 'Hook ep1' })).data.list[0];
    expect(row).toMatchObject({
      id: m.m1,
      file_name: 'Hook ep1.mp4',
      drama: { id: dramaA, name: 'Drama A' },
      product: null,
      editor: null,
      uploader: { id: org.s1.id },
      department: { id: org.departments.d1 },
      push_counts: { pending: 0, uploading: 0, processing: 0, ready: 0, failed: 0 },
      ads_using: 0,
      thumbnail_url: null,
    });
    expect(row.file_url).toMatch(new RegExp(`^/api/material/file/${m.m1}\\?exp=\\d+&sig=`));
  });

  it('offers the facets of the caller’s library', async () => {
    const f = (await t.call('/api/materials/facets', { platform: 'dj' }, { token: tokens.s1! })).data;
    // Most used first, then by name.
    expect(f.tags).toEqual([
      { tag: 'cliff', count: 2 },
      { tag: 'hook', count: 2 },
      { tag: 'ep1', count: 1 },
    ]);
    expect(f.editors.map((e: any) => e.id)).toEqual([org.s1.id]);
    expect(f.uploaders.map((u: any) => u.id).sort()).toEqual([org.s1.id, org.s2.id, org.s4.id].sort());
    expect(f.languages).toEqual(['en', 'es']);
    expect((await t.call('/api/materials/facets', undefined, { token: tokens.manager! })).data.tags).toHaveLength(3);
  });
});

describe('editing', () => {
  it('edits one material (null clears), checks its references, and audits the change', async () => {
    const res = await t.call('/api/materials/edit', { id: m.m2, file_name: 'Cliffhanger ep2.mp4', drama_id: null, language: 'pt', editor_id: org.s2.id, tags: ['cliff', 'cliff', 'v2'], remark: 'recut' }, { token: tokens.s1! });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ file_name: 'Cliffhanger ep2.mp4', drama: null, language: 'pt', editor: { id: org.s2.id }, tags: ['cliff', 'v2'], remark: 'recut' });
    const audit = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'material.edit').where('entity_id', '=', String(m.m2)).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: org.s1.id, before: { file_name: 'Cliff ep2.mp4', drama_id: dramaB }, after: { file_name: 'Cliffhanger ep2.mp4', drama_id: null } });

    const refusals: [Record<string, unknown>, string][] = [
      [{ id: m.m2, product_id: product }, 'Only e-commerce (ec) materials can have a product.'],
      [{ id: m.m6, drama_id: dramaA }, 'Only drama (dj) materials can have a drama.'],
      [{ id: m.m2, drama_id: 999999 }, 'The drama does not exist or was deleted.'],
      [{ id: m.m2, editor_id: 999999 }, 'The editor does not exist or was deleted.'],
    ];
    for (const [body, message] of refusals) {
      const r = await t.call('/api/materials/edit', body, { token: tokens.manager!, lang: 'en' });
      expect(r, message).toMatchObject({ code: -2, message });
    }
  });

  it('edits many at once: tags added, replaced or removed; all refused when one is outside the scope', async () => {
    const tagsOf = async (id: number) => (await t.db.selectFrom('materials').select('tags').where('id', '=', id).executeTakeFirstOrThrow()).tags;
    expect((await t.call('/api/materials/batch_edit', { ids: [m.m1, m.m4], tags: ['new'] }, { token: tokens.s1! })).data).toEqual({ updated: 2 });
    expect(await tagsOf(m.m1!)).toEqual(['hook', 'ep1', 'new']);
    expect(await tagsOf(m.m4!)).toEqual(['hook', 'cliff', 'new']);
    await t.call('/api/materials/batch_edit', { ids: [m.m1, m.m4], tags: ['new', 'hook'], tags_mode: 'remove', language: 'ja' }, { token: tokens.s1! });
    expect(await tagsOf(m.m1!)).toEqual(['ep1']);
    await t.call('/api/materials/batch_edit', { ids: [m.m1], tags: ['a', 'b'], tags_mode: 'replace' }, { token: tokens.s1! });
    expect(await tagsOf(m.m1!)).toEqual(['a', 'b']);
    expect((await t.db.selectFrom('materials').select('language').where('id', '=', m.m4!).executeTakeFirstOrThrow()).language).toBe('ja');

    const before = await tagsOf(m.m1!);
    expect((await t.call('/api/materials/batch_edit', { ids: [m.m1, m.m5], tags: ['x'] }, { token: tokens.s1! })).code).toBe(403);
    expect(await tagsOf(m.m1!)).toEqual(before);
    expect(await t.db.selectFrom('audit_logs').select('id').where('action', '=', 'material.batch_edit').execute()).toHaveLength(5);
  });
});

describe('deleting', () => {
  it('refuses materials still used by ads, naming each, and deletes none of the batch', async () => {
    const acct = await createAdAccount(t.db);
    await t.db
      .insertInto('material_usages')
      .values([
        { material_id: m.m3!, ad_account_id: acct.id, platform_ad_id: '120001' },
        { material_id: m.m3!, ad_account_id: acct.id, platform_ad_id: '120002' },
      ])
      .execute();
    const res = await t.call('/api/materials/delete', { ids: [m.m3, m.m5] }, { token: tokens.manager!, lang: 'en' });
    expect(res).toMatchObject({ code: -2, message: 'These materials are still used by ads and cannot be deleted: ep3.mp4 (2 ads)' });
    const zh = await t.call('/api/materials/delete', { ids: [m.m3] }, { token: tokens.manager! });
    expect(zh.message).toBe('以下素材仍被广告使用，不能删除：ep3.mp4（2 个广告）');
    expect((await t.call('/api/materials/get', { id: m.m5 }, { token: tokens.manager! })).code).toBe(0);
    expect((await t.call('/api/materials/get', { id: m.m3 }, { token: tokens.manager! })).data.ads_using).toBe(2);
  });

  it('lets staff delete only their own uploads, and leaders anything in their scope; deleted ones leave every list', async () => {
    const refused = await t.call('/api/materials/delete', { ids: [m.m1, m.m2] }, { token: tokens.s1!, lang: 'en' });
    expect(refused).toMatchObject({ code: -2, message: 'You can only delete materials you uploaded (leaders and managers excepted): Cliffhanger ep2.mp4' });
    expect((await t.call('/api/materials/delete', { ids: [m.m1] }, { token: tokens.s1! })).data).toEqual({ deleted: 1 });
    expect((await t.call('/api/materials/delete', { ids: [m.m2] }, { token: tokens.leader! })).data).toEqual({ deleted: 1 });
    expect(ids((await list('leader')).data.list)).toEqual(set('m3', 'm4'));
    expect((await t.call('/api/materials/get', { id: m.m1 }, { token: tokens.manager!, lang: 'en' })).message).toBe('The material does not exist or was deleted.');
    expect((await t.call('/api/materials/delete', { ids: [m.m1] }, { token: tokens.manager! })).code).toBe(-2);
    const audit = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'material.delete').orderBy('id').execute();
    expect(audit.map((a) => [a.actor_id, a.entity_id])).toEqual([
      [org.s1.id, String(m.m1)],
      [org.leader.id, String(m.m2)],
    ]);
  });
});

describe('pushing', () => {
  it('queues each material × account pair once as one task, skips pairs already queued, and requeues failed ones', async () => {
    const first = await t.call('/api/materials/push', { material_ids: [m.m4], ad_account_ids: [accountOfS1] }, { token: tokens.s1! });
    expect(first.code).toBe(0);
    expect(first.data).toMatchObject({ task_id: expect.any(Number), queued: 1, skipped: 0 });
    const run = await t.db.selectFrom('job_runs').selectAll().where('id', '=', first.data.task_id).executeTakeFirstOrThrow();
    expect(run).toMatchObject({ job_name: 'push-materials', created_by: org.s1.id, status: 'queued' });

    expect((await t.call('/api/materials/push', { material_ids: [m.m4], ad_account_ids: [accountOfS1] }, { token: tokens.s1! })).data).toEqual({ task_id: null, queued: 0, skipped: 1 });

    const pushes = await t.call('/api/materials/pushes', { material_id: m.m4 }, { token: tokens.s1! });
    expect(pushes.data.total).toBe(1);
    expect(pushes.data.list[0]).toMatchObject({ material: { id: m.m4 }, ad_account: { id: accountOfS1 }, state: 'pending', task_id: first.data.task_id, pushed_by: { id: org.s1.id }, attempts: 0 });
    expect((await t.call('/api/materials/get', { id: m.m4 }, { token: tokens.s1! })).data.push_counts.pending).toBe(1);
    expect(ids((await list('s1', { push: 'active' })).data.list)).toEqual(set('m4'));
    expect(ids((await list('s1', { push: 'none' })).data.list)).toEqual([]);

    await t.db.updateTable('material_pushes').set({ state: 'failed', error: 'Invalid video' }).execute();
    expect(ids((await list('s1', { push: 'failed', ad_account_id: accountOfS1 })).data.list)).toEqual(set('m4'));
    expect((await t.call('/api/materials/push', { material_ids: [m.m4], ad_account_ids: [accountOfS1] }, { token: tokens.s1! })).data).toMatchObject({ queued: 1, skipped: 0 });
    expect(await t.db.selectFrom('material_pushes').select(['state', 'error']).execute()).toEqual([{ state: 'pending', error: null }]);
    expect(await t.db.selectFrom('audit_logs').select('after').where('action', '=', 'material.push').execute()).toHaveLength(3);
  });

  it('pushes only to ad accounts in the caller’s scope, and shows pushes only of accounts they see', async () => {
    expect((await t.call('/api/materials/push', { material_ids: [m.m4], ad_account_ids: [accountOfS4] }, { token: tokens.s1! })).code).toBe(403);
    expect((await t.call('/api/materials/push', { material_ids: [m.m4], ad_account_ids: [999999] }, { token: tokens.s1!, lang: 'en' })).message).toBe('The ad account does not exist.');
    const s4 = await t.call('/api/materials/push', { material_ids: [m.m4], ad_account_ids: [accountOfS4] }, { token: tokens.s4! });
    expect(s4.data.queued).toBe(1);
    // s1 sees m4 (its editor) but not s4's account: only their own pair shows.
    expect((await t.call('/api/materials/pushes', { material_id: m.m4 }, { token: tokens.s1! })).data.total).toBe(1);
    expect((await t.call('/api/materials/pushes', { material_id: m.m4 }, { token: tokens.manager! })).data.total).toBe(2);
    expect((await t.call('/api/materials/get', { id: m.m4 }, { token: tokens.s1! })).data.push_counts.pending).toBe(1);
  });

  it('retries failed pushes (by id or by material), skipping the others', async () => {
    const pushes = await t.db.selectFrom('material_pushes').select(['id', 'ad_account_id']).orderBy('id').execute();
    await t.db.updateTable('material_pushes').set({ state: 'failed', error_key: 'PUSH_INTERRUPTED' }).where('id', '=', pushes[0]!.id).execute();
    const listed = await t.call('/api/materials/pushes', { state: 'failed' }, { token: tokens.manager!, lang: 'en' });
    expect(listed.data.list[0].error).toBe('The push task was cancelled or interrupted; retry it.');
    const res = await t.call('/api/materials/retry_push', { material_id: m.m4 }, { token: tokens.manager! });
    expect(res.data).toMatchObject({ task_id: expect.any(Number), queued: 1, skipped: 1 });
    expect((await t.call('/api/materials/retry_push', { push_ids: [pushes[0]!.id] }, { token: tokens.manager! })).data).toEqual({ task_id: null, queued: 0, skipped: 1 });
    expect((await t.call('/api/materials/retry_push', { push_ids: [999999] }, { token: tokens.manager!, lang: 'en' })).message).toBe('The push does not exist.');
    expect((await t.call('/api/materials/retry_push', { push_ids: [pushes[1]!.id] }, { token: tokens.s1! })).code).toBe(403);
    expect((await t.call('/api/materials/retry_push', {}, { token: tokens.manager! })).code).toBe(-2);
  });

  it('refuses more pairs than one push may queue (10 000), queuing none', async () => {
    const boss = await createUser(t.db, { is_admin: 1 });
    const token = await t.login(boss.account, boss.password);
    const materials = await t.db
      .insertInto('materials')
      .values(Array.from({ length: 500 }, (_, i) => ({ kind: 'image' as const, platform: 'ec' as const, file_name: `bulk-${i}.png`, mime_type: 'image/png', size_bytes: 10, md5: `c${i.toString(16).padStart(31, '0')}`, storage_key: `bulk/${i}.png`, uploader_id: boss.id })))
      .returning('id')
      .execute();
    const accounts = [];
    for (let i = 0; i < 21; i++) accounts.push((await createAdAccount(t.db)).id);
    const before = await t.db.selectFrom('material_pushes').select('id').execute();
    const res = await t.call('/api/materials/push', { material_ids: materials.map((r) => r.id), ad_account_ids: accounts }, { token, lang: 'en' });
    expect(res).toMatchObject({ code: -2, message: 'At most 10000 pushes (materials × ad accounts) at once; this is 10500.' });
    expect(await t.db.selectFrom('material_pushes').select('id').execute()).toHaveLength(before.length);
  });
});
