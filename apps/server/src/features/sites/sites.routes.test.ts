import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createDrama, createPixel, createSite, createUser } from '../../test/factories.ts';
import { inlineRow, xlsxBomb } from '../../test/xlsx-bomb.ts';

let t: TestApp;
let manager: string;
let siteStaff: string;
let nobody: string;

beforeAll(async () => {
  t = await buildTestApp();
  const m = await createUser(t.db, { is_admin: 1 });
  const s = await createUser(t.db, { paths: ['/auth/site'] });
  const n = await createUser(t.db, { paths: ['/index'] });
  manager = await t.login(m.account, m.password);
  siteStaff = await t.login(s.account, s.password);
  nobody = await t.login(n.account, n.password);
});
afterAll(() => t.close());

const b64 = (data: string | Buffer | ArrayBuffer) => Buffer.from(data as Buffer).toString('base64');

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function readXlsx(body: Buffer): Promise<(string | number | null)[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const rows: (string | number | null)[][] = [];
  wb.worksheets[0]!.eachRow((row) => rows.push((row.values as (string | number | null)[]).slice(1)));
  return rows;
}

const validSite = (n: string) => ({ name: `Site ${n}`, domain: `${n}.example.com`, platform: 'dj', link_template: `https://${n}.example.com/play/{drama_id}?c={campaign_id}` });

describe('sites', () => {
  it('creates a site and shows its webhook secret once: never in lists, never in the audit log', async () => {
    const created = await t.call('/api/sites/create', { ...validSite('once'), remark: 'main site' }, { token: manager });
    expect(created.code).toBe(0);
    expect(created.data.webhook_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const list = await t.call('/api/sites/list', { keyword: 'once' }, { token: manager });
    expect(list.data.total).toBe(1);
    const site = list.data.list[0];
    expect(site).toMatchObject({ id: created.data.id, name: 'Site once', domain: 'once.example.com', platform: 'dj', pixel: null, remark: 'main site', catalog_count: 0 });
    expect(site.webhook_url).toBe(`http://localhost:8080/api/orders/webhook/${created.data.id}`);
    expect(JSON.stringify(list)).not.toContain(created.data.webhook_secret);

    const stored = await t.db.selectFrom('sites').select('webhook_secret_enc').where('id', '=', created.data.id).executeTakeFirstOrThrow();
    expect(stored.webhook_secret_enc).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(stored.webhook_secret_enc).not.toContain(created.data.webhook_secret);
    const audit = await t.db.selectFrom('audit_logs').selectAll().where('entity_type', '=', 'site').where('entity_id', '=', String(created.data.id)).execute();
    expect(audit.map((a) => a.action)).toEqual(['site.create']);
    expect(JSON.stringify(audit)).not.toContain(created.data.webhook_secret);
  });

  it('rotating the secret answers a new one once and replaces the stored one', async () => {
    const created = await t.call('/api/sites/create', validSite('rotate'), { token: manager });
    const before = await t.db.selectFrom('sites').select('webhook_secret_enc').where('id', '=', created.data.id).executeTakeFirstOrThrow();
    const rotated = await t.call('/api/sites/rotate_secret', { id: created.data.id }, { token: manager });
    expect(rotated.data.id).toBe(created.data.id);
    expect(rotated.data.webhook_secret).not.toBe(created.data.webhook_secret);
    const after = await t.db.selectFrom('sites').select('webhook_secret_enc').where('id', '=', created.data.id).executeTakeFirstOrThrow();
    expect(after.webhook_secret_enc).not.toBe(before.webhook_secret_enc);
    const audit = await t.db.selectFrom('audit_logs').select(['action', 'after']).where('action', '=', 'site.rotate_secret').execute();
    expect(JSON.stringify(audit)).not.toContain(rotated.data.webhook_secret);
  });

  it('refuses a domain already used by another site, in the caller language, naming the field; a deleted site frees it', async () => {
    const first = await t.call('/api/sites/create', validSite('dup'), { token: manager });
    const again = await t.call('/api/sites/create', { ...validSite('dup'), domain: 'DUP.example.com' }, { token: manager, lang: 'en' });
    expect(again).toMatchObject({ code: -2, message: 'The domain "dup.example.com" is already used by another site.' });
    expect(again.data.errors[0].field).toBe('domain');
    expect((await t.call('/api/sites/delete', { id: first.data.id }, { token: manager })).code).toBe(0);
    expect((await t.call('/api/sites/list', { keyword: 'dup.example' }, { token: manager })).data.total).toBe(0);
    expect((await t.call('/api/sites/create', validSite('dup'), { token: manager })).code).toBe(0);
  });

  it('validates domains, link templates and the pixel', async () => {
    const bad = await t.call('/api/sites/create', { ...validSite('v'), domain: 'https://v.example.com/x', link_template: 'http://v.example.com' }, { token: manager, lang: 'en' });
    expect(bad.code).toBe(-2);
    expect(bad.data.errors.map((e: any) => e.field).sort()).toEqual(['domain', 'link_template']);
    const noPixel = await t.call('/api/sites/create', { ...validSite('px'), pixel_id: 999999 }, { token: manager });
    expect(noPixel).toMatchObject({ code: -2, message: '像素不存在' });
    const pixel = await createPixel(t.db, { name: 'Main pixel' });
    const ok = await t.call('/api/sites/create', { ...validSite('px'), pixel_id: pixel.id }, { token: manager });
    const list = await t.call('/api/sites/list', { keyword: 'px.example' }, { token: manager });
    expect(list.data.list[0].pixel).toEqual({ id: pixel.id, name: 'Main pixel' });
    expect(ok.code).toBe(0);
  });

  it('edits a site, but not its platform once it has a catalog', async () => {
    const site = await t.call('/api/sites/create', validSite('edit'), { token: manager });
    const edited = await t.call('/api/sites/edit', { id: site.data.id, name: 'Renamed', platform: 'ec' }, { token: manager });
    expect(edited.data).toMatchObject({ name: 'Renamed', platform: 'ec' });
    await t.call('/api/sites/edit', { id: site.data.id, platform: 'dj' }, { token: manager });
    await createDrama(t.db, { site_id: site.data.id });
    const locked = await t.call('/api/sites/edit', { id: site.data.id, platform: 'ec' }, { token: manager, lang: 'en' });
    expect(locked).toMatchObject({ code: -2, message: 'The site already has 1 dramas or products; its platform cannot change.' });
    expect((await t.call('/api/sites/edit', { id: 999999, name: 'x' }, { token: manager })).message).toBe('站点不存在或已删除');
  });

  it('is a company catalog: anyone holding /auth/site reads and edits it; others are refused', async () => {
    expect((await t.call('/api/sites/list', {}, { token: siteStaff })).data.total).toBeGreaterThan(0);
    expect((await t.call('/api/sites/create', validSite('staff'), { token: siteStaff })).code).toBe(0);
    expect((await t.call('/api/sites/list', {}, { token: nobody })).code).toBe(403);
  });
});

describe('dramas and products', () => {
  let dj: number;
  let ec: number;
  beforeAll(async () => {
    dj = (await createSite(t.db, { name: 'Drama site', platform: 'dj' })).id;
    ec = (await createSite(t.db, { name: 'Shop', platform: 'ec' })).id;
  });

  it('creates, lists with filters, edits and deletes dramas, with an audit entry for each change', async () => {
    const created = await t.call(
      '/api/dramas/create',
      { site_id: dj, external_id: 'X1', name: '总裁的替身新娘', language: 'zh', episode_count: 80, tags: ['霸总', '甜宠'], cover_url: 'https://img.example.com/x1.jpg' },
      { token: siteStaff },
    );
    expect(created.data).toMatchObject({ site: { id: dj, name: 'Drama site' }, external_id: 'X1', test_status: 'untested', tags: ['霸总', '甜宠'] });
    await t.call('/api/dramas/create', { site_id: dj, external_id: 'X2', name: 'Alpha King', language: 'en', episode_count: 60, test_status: 'testing' }, { token: siteStaff });

    const byTag = await t.call('/api/dramas/list', { site_id: dj, tag: '甜宠' }, { token: siteStaff });
    expect(byTag.data.list.map((d: any) => d.external_id)).toEqual(['X1']);
    const byStatus = await t.call('/api/dramas/list', { site_id: dj, test_status: 'testing', language: 'en' }, { token: siteStaff });
    expect(byStatus.data.list.map((d: any) => d.external_id)).toEqual(['X2']);
    const byKeyword = await t.call('/api/dramas/list', { keyword: 'x1' }, { token: siteStaff });
    expect(byKeyword.data.total).toBe(1);
    const sorted = await t.call('/api/dramas/list', { site_id: dj, sort_field: 'episode_count', sort_order: 'ascend' }, { token: siteStaff });
    expect(sorted.data.list.map((d: any) => d.episode_count)).toEqual([60, 80]);

    const edited = await t.call('/api/dramas/edit', { id: created.data.id, test_status: 'passed', episode_count: 82 }, { token: siteStaff });
    expect(edited.data).toMatchObject({ test_status: 'passed', episode_count: 82, name: '总裁的替身新娘' });
    expect((await t.call('/api/dramas/delete', { id: created.data.id }, { token: siteStaff })).code).toBe(0);
    expect((await t.call('/api/dramas/list', { site_id: dj }, { token: siteStaff })).data.total).toBe(1);
    const actions = await t.db.selectFrom('audit_logs').select('action').where('entity_type', '=', 'drama').where('entity_id', '=', String(created.data.id)).orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['drama.create', 'drama.edit', 'drama.delete']);
  });

  it('refuses a repeated external id within a site and dramas on shop sites, with the field', async () => {
    await t.call('/api/dramas/create', { site_id: dj, external_id: 'DUP', name: 'A', language: 'zh', episode_count: 10 }, { token: manager });
    const dup = await t.call('/api/dramas/create', { site_id: dj, external_id: 'DUP', name: 'B', language: 'zh', episode_count: 10 }, { token: manager, lang: 'en' });
    expect(dup).toMatchObject({ code: -2, message: 'The site already has an entry with the id "DUP".' });
    expect(dup.data.errors[0].field).toBe('external_id');
    const wrongSite = await t.call('/api/dramas/create', { site_id: ec, external_id: 'Z', name: 'A', language: 'zh', episode_count: 10 }, { token: manager });
    expect(wrongSite).toMatchObject({ code: -2, message: '站点「Shop」是电商站点，剧集只能属于短剧（dj）站点' });
    const invalid = await t.call('/api/dramas/create', { site_id: dj, external_id: '', name: 'A', language: 'zh', episode_count: 0, test_status: 'maybe' }, { token: manager });
    expect(invalid.data.errors.map((e: any) => e.field).sort()).toEqual(['episode_count', 'external_id', 'test_status']);
  });

  it('creates, edits and deletes products; prices keep their decimals', async () => {
    const created = await t.call('/api/products/create', { site_id: ec, external_id: 'SKU-1', name: 'Lamp', url: 'https://shop.example.com/lamp', price: 24.99, currency: 'usd' }, { token: manager });
    expect(created.data).toMatchObject({ price: 24.99, currency: 'USD', site: { id: ec } });
    const edited = await t.call('/api/products/edit', { id: created.data.id, price: 19.5, tags: ['home'] }, { token: manager });
    expect(edited.data).toMatchObject({ price: 19.5, tags: ['home'] });
    expect((await t.call('/api/products/list', { site_id: ec, tag: 'home' }, { token: manager })).data.total).toBe(1);
    expect((await t.call('/api/products/create', { site_id: dj, external_id: 'S', name: 'x', url: 'https://a.example.com', price: 1, currency: 'USD' }, { token: manager })).message).toContain('商品只能属于电商');
    expect((await t.call('/api/products/delete', { id: created.data.id }, { token: manager })).code).toBe(0);
    expect((await t.call('/api/products/delete', { id: created.data.id }, { token: manager })).message).toBe('商品不存在或已删除');
  });

  it('takes only http(s) links for product pages and covers: javascript: and data: are refused, naming the field', async () => {
    const body = { site_id: ec, external_id: 'SKU-X', name: 'X', price: 1, currency: 'USD' };
    const script = await t.call('/api/products/create', { ...body, url: 'javascript:alert(document.cookie)', cover_url: 'data:text/html,<script>alert(1)</script>' }, { token: manager, lang: 'en' });
    expect(script.code).toBe(-2);
    expect(script.data.errors).toEqual([
      { field: 'url', message: 'Must be a full link starting with http:// or https://' },
      { field: 'cover_url', message: 'Must be a full link starting with http:// or https://' },
    ]);
    const drama = await t.call('/api/dramas/create', { site_id: dj, external_id: 'D-X', name: 'X', language: 'en', episode_count: 1, cover_url: 'javascript:alert(1)' }, { token: manager });
    expect(drama.data.errors.map((e: { field: string }) => e.field)).toEqual(['cover_url']);
    expect(await t.db.selectFrom('products').select('id').where('external_id', '=', 'SKU-X').executeTakeFirst()).toBeUndefined();
    const http = await t.call('/api/products/create', { ...body, url: 'http://shop.example.com/x', cover_url: 'https://cdn.example.com/x.jpg' }, { token: manager });
    expect(http.code).toBe(0);
  });
});

describe('catalog import and export', () => {
  let site: number;
  let shop: number;
  beforeAll(async () => {
    site = (await createSite(t.db, { name: 'Import site', platform: 'dj' })).id;
    shop = (await createSite(t.db, { name: 'Import shop', platform: 'ec' })).id;
  });
  const dramaCount = async () => Number((await t.db.selectFrom('dramas').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', site).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).n);
  const importDramas = (filename: string, content: Buffer | string, extra: object = {}, lang?: string) =>
    t.call('/api/dramas/import', { site_id: site, filename, content_base64: b64(typeof content === 'string' ? Buffer.from(content) : content), ...extra }, { token: manager, ...(lang && { lang }) });

  it('imports a CSV with English headers, keeping ids as text and splitting tags on , ; 、', async () => {
    const csv = 'external_id,name,language,episode_count,cover_url,tags,test_status\n00123,First,zh,80,https://img.example.com/1.jpg,"霸总;甜宠",testing\nA2,Second,en,60,,romance、revenge,\n';
    const res = await importDramas('dramas.csv', csv);
    expect(res.data).toEqual({ created: 2, updated: 0, errors: [] });
    const list = await t.call('/api/dramas/list', { site_id: site, sort_field: 'name', sort_order: 'ascend' }, { token: manager });
    expect(list.data.list.map((d: any) => [d.external_id, d.tags, d.test_status, d.cover_url])).toEqual([
      ['00123', ['霸总', '甜宠'], 'testing', 'https://img.example.com/1.jpg'],
      ['A2', ['romance', 'revenge'], 'untested', null],
    ]);
    const audit = await t.db.selectFrom('audit_logs').select('after').where('action', '=', 'drama.import').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.after).toMatchObject({ filename: 'dramas.csv', created: 2, updated: 0 });
  });

  it('imports an xlsx with Chinese headers; an existing external_id is updated, a blank test status keeps the stored one', async () => {
    const file = await xlsx([
      ['剧集ID', '剧名', '语言', '集数', '封面', '标签', '测试状态'],
      ['00123', '第一部（改名）', 'zh', 81, null, '霸总', null],
      ['B3', '第三部', 'ja', 40, null, null, '已通过'],
    ]);
    const res = await importDramas('剧集.xlsx', file);
    expect(res.data).toEqual({ created: 1, updated: 1, errors: [] });
    const first = (await t.call('/api/dramas/list', { site_id: site, keyword: '00123' }, { token: manager })).data.list[0];
    expect(first).toMatchObject({ name: '第一部（改名）', episode_count: 81, tags: ['霸总'], test_status: 'testing', cover_url: null });
    const third = (await t.call('/api/dramas/list', { site_id: site, keyword: 'B3' }, { token: manager })).data.list[0];
    expect(third).toMatchObject({ language: 'ja', test_status: 'passed' });
  });

  it('takes the target of an xlsx hyperlink in link columns (the cover), and its text elsewhere', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['external_id', 'name', 'language', 'episode_count', 'cover_url']);
    ws.addRow(['H1', { text: 'Linked name', hyperlink: 'https://example.com/not-a-name' }, 'zh', 3, { text: '封面', hyperlink: 'https://img.example.com/h1.jpg' }]);
    const res = await importDramas('links.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.data).toEqual({ created: 1, updated: 0, errors: [] });
    const h1 = (await t.call('/api/dramas/list', { site_id: site, keyword: 'H1' }, { token: manager })).data.list[0];
    expect(h1).toMatchObject({ name: 'Linked name', cover_url: 'https://img.example.com/h1.jpg' });
  });

  it('reads a GBK-encoded CSV as Excel saves it on Chinese Windows, and semicolon-separated files', async () => {
    // "剧集ID,剧名,语言,集数" / "G1K,古装剧,zh,20" encoded in GBK.
    const csv = Buffer.from('bee7bcaf49442cbee7c3fb2cd3efd1d42cbcafcafd0a47314b2cb9c5d7b0bee72c7a682c32300a', 'hex');
    const res = await importDramas('gbk.csv', csv);
    expect(res.data).toEqual({ created: 1, updated: 0, errors: [] });
    expect((await t.call('/api/dramas/list', { site_id: site, keyword: 'G1K' }, { token: manager })).data.list[0].name).toBe('古装剧');
    const semi = await importDramas('semi.csv', 'external_id;name;language;episode_count\nS1;Semi;en;12\n');
    expect(semi.data).toEqual({ created: 1, updated: 0, errors: [] });
  });

  it('rejects the whole file when a row is bad, naming each row (as the spreadsheet numbers it) and column; nothing is written', async () => {
    const before = await dramaCount();
    const csv = [
      'external_id,name,language,episode_count,test_status',
      'OK1,Fine,zh,10,',
      'BAD1,,zh,abc,',
      'OK2,Fine too,zh,12,maybe',
      'OK1,Repeated,zh,10,',
    ].join('\n');
    const res = await importDramas('bad.csv', csv, {}, 'en');
    expect(res.code).toBe(0);
    expect(res.data.created).toBe(0);
    expect(res.data.updated).toBe(0);
    expect(res.data.errors).toEqual([
      { row: 3, field: 'episode_count', message: 'Must be a number, got "abc".' },
      { row: 3, field: 'name', message: 'Required' },
      { row: 4, field: 'test_status', message: expect.stringContaining('Unknown test status "maybe"') },
      { row: 5, field: 'external_id', message: 'The id "OK1" repeats row 2.' },
    ]);
    expect(await dramaCount()).toBe(before);
  });

  it('refuses catalog rows with a script link or a NUL character, naming the row and column', async () => {
    const csv = ['external_id,name,language,episode_count,cover_url', 'JS1,Fine,zh,10,javascript:alert(1)', 'NUL1,Bad\u0000name,zh,10,'].join('\n');
    const res = await importDramas('links.csv', csv, {}, 'en');
    expect(res.data.errors).toEqual([
      { row: 2, field: 'cover_url', message: 'Must be a full link starting with http:// or https://' },
      { row: 3, field: 'name', message: 'Must not contain NUL or invalid Unicode characters' },
    ]);
    expect(res.data.created).toBe(0);
  });

  it('dry_run checks and counts without writing', async () => {
    const before = await dramaCount();
    const res = await importDramas('dry.xlsx', await xlsx([['external_id', 'name', 'language', 'episode_count'], ['00123', 'Same id', 'zh', 5], ['NEW9', 'New', 'zh', 5]]), { dry_run: true });
    expect(res.data).toEqual({ created: 1, updated: 1, errors: [] });
    expect(await dramaCount()).toBe(before);
    expect((await t.call('/api/dramas/list', { site_id: site, keyword: '00123' }, { token: manager })).data.list[0].name).not.toBe('Same id');
  });

  it('refuses files it cannot use with a clear message: missing columns, no rows, not a spreadsheet, wrong site kind', async () => {
    const missing = await importDramas('m.csv', 'external_id,name\nA,B\n', {}, 'en');
    expect(missing).toMatchObject({ code: -2, message: 'The header lacks the columns: language (语言), episode_count (集数)' });
    expect(missing.data.errors[0].field).toBe('content_base64');
    expect((await importDramas('e.csv', 'external_id,name,language,episode_count\n', {}, 'en')).message).toBe('The file has no data rows (row 1 is the header).');
    expect((await importDramas('x.xlsx', 'not a zip file', {}, 'en')).message).toMatch(/^The file cannot be read/);
    const wrongKind = await t.call('/api/products/import', { site_id: site, filename: 'p.csv', content_base64: b64('external_id,name,url,price,currency\n') }, { token: manager });
    expect(wrongKind.message).toContain('商品只能属于电商');
    const badName = await t.call('/api/dramas/import', { site_id: site, filename: 'x.txt', content_base64: 'aGk=' }, { token: manager, lang: 'en' });
    expect(badName.data.errors).toEqual([{ field: 'filename', message: 'Only .csv or .xlsx files are supported' }]);
  });

  it('exports dramas as xlsx with the import columns, and the export imports back unchanged', async () => {
    const res = await t.raw('/api/dramas/export', { token: manager, payload: { site_id: site }, headers: { 'content-type': 'application/json' } });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['剧集ID', '剧名', '语言', '集数', '封面', '标签', '测试状态', '站点']);
    const count = await dramaCount();
    expect(rows.length - 1).toBe(count);
    const first = rows.find((r) => r[0] === '00123')!;
    expect(first).toEqual(['00123', '第一部（改名）', 'zh', 81, undefined, '霸总', '测试中', 'Import site']);

    const listBefore = (await t.call('/api/dramas/list', { site_id: site, page_size: 100 }, { token: manager })).data.list;
    const again = await importDramas('export.xlsx', res.rawPayload);
    expect(again.data).toEqual({ created: 0, updated: count, errors: [] });
    const listAfter = (await t.call('/api/dramas/list', { site_id: site, page_size: 100 }, { token: manager })).data.list;
    const strip = (l: any[]) => l.map(({ updated_at: _u, ...rest }) => rest);
    expect(strip(listAfter)).toEqual(strip(listBefore));

    const en = await t.raw('/api/dramas/export', { token: manager, payload: { site_id: site }, headers: { 'content-type': 'application/json', 'accept-language': 'en' } });
    expect((await readXlsx(en.rawPayload))[0]).toEqual(['external_id', 'name', 'language', 'episode_count', 'cover_url', 'tags', 'test_status', 'site']);
  });

  it('imports and exports products the same way', async () => {
    const csv = '商品ID,商品名,链接,价格,币种,封面,标签\nP1,台灯,https://shop.example.com/p1,"1,299.50",cny,,家居\nP2,Mask,https://shop.example.com/p2,9.9,USD,,beauty;sleep\n';
    const res = await t.call('/api/products/import', { site_id: shop, filename: 'products.csv', content_base64: b64(csv) }, { token: manager });
    expect(res.data).toEqual({ created: 2, updated: 0, errors: [] });
    const p1 = (await t.call('/api/products/list', { site_id: shop, keyword: 'P1' }, { token: manager })).data.list[0];
    expect(p1).toMatchObject({ price: 1299.5, currency: 'CNY', tags: ['家居'] });
    const bad = await t.call('/api/products/import', { site_id: shop, filename: 'p.csv', content_base64: b64('external_id,name,url,price,currency\nP3,X,not-a-url,-1,US\n') }, { token: manager });
    expect(bad.data.errors.map((e: any) => [e.row, e.field])).toEqual([
      [2, 'url'],
      [2, 'price'],
      [2, 'currency'],
    ]);
    const exported = await t.raw('/api/products/export', { token: manager, payload: { site_id: shop }, headers: { 'content-type': 'application/json' } });
    const again = await t.call('/api/products/import', { site_id: shop, filename: 'export.xlsx', content_base64: b64(exported.rawPayload) }, { token: manager });
    expect(again.data).toEqual({ created: 0, updated: 2, errors: [] });

    // The shown columns alone, in their order: the table's price column holds the currency too,
    // its name column the id; created_at is written when asked.
    const shown = await t.raw('/api/products/export', { token: manager, payload: { site_id: shop, keyword: 'P1', columns: ['price', 'name', 'created_at'] }, headers: { 'content-type': 'application/json' } });
    const rows = await readXlsx(shown.rawPayload);
    expect(rows[0]).toEqual(['价格', '币种', '商品ID', '商品名', '创建时间']);
    expect(rows.slice(1)).toEqual([[1299.5, 'CNY', 'P1', '台灯', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)]]);
    const unknown = await t.call('/api/dramas/export', { site_id: site, columns: ['cover', 'price'] }, { token: manager });
    expect(unknown.code).toBe(-2);
  });

  describe('hostile files', () => {
    const header = inlineRow(['external_id', 'name', 'language', 'episode_count'], 1);
    /** Sends a file and answers the envelope and how long the refusal took. */
    async function timed(filename: string, file: Buffer) {
      const started = performance.now();
      const res = await importDramas(filename, file, {}, 'en');
      return { res, ms: performance.now() - started };
    }

    it('refuses at once an xlsx of a few hundred KB that says it unpacks to 400 MB (a zip bomb); nothing is written', async () => {
      const before = await dramaCount();
      const { file, sheetBytes } = xlsxBomb({ head: header, inflatedBytes: 400 * 1024 * 1024 });
      expect(file.length).toBeLessThan(1024 * 1024);
      expect(sheetBytes).toBeGreaterThan(400 * 1000 * 1000);
      const { res, ms } = await timed('bomb.xlsx', file);
      expect(res).toMatchObject({ code: -2, message: 'The file unpacks to more than 32 MB; split it into smaller files.' });
      expect(res.data.errors[0].field).toBe('content_base64');
      expect(ms).toBeLessThan(5000);
      expect(await dramaCount()).toBe(before);
    });

    it('refuses quickly the same bomb when its zip lies about the size (the bytes inflated are counted)', async () => {
      const { file } = xlsxBomb({ head: header, inflatedBytes: 400 * 1024 * 1024, declaredSize: 2000 });
      const { res, ms } = await timed('liar.xlsx', file);
      expect(res.code).toBe(-2);
      expect(res.message).toMatch(/^The file cannot be read; .*larger than the zip declares/);
      expect(ms).toBeLessThan(5000);
    });

    it('refuses a sheet of 180 000 rows (a bomb of rows) at the row cap, and a row wider than the column cap, naming the cell', async () => {
      const rows = xlsxBomb({ head: header, filler: inlineRow(['X', 'Name', 'zh', '1']), inflatedBytes: 30 * 1024 * 1024 });
      const many = await timed('rows.xlsx', rows.file);
      expect(many.res).toMatchObject({ code: -2, message: 'At most 20000 rows can be imported at once; split the file.' });
      expect(many.ms).toBeLessThan(10_000);

      const wide = await xlsx([['external_id', 'name', 'language', 'episode_count'], ['W1', 'Wide', 'zh', 3, ...Array.from({ length: 300 }, (_, i) => `extra ${i}`)]]);
      expect((await importDramas('wide.xlsx', wide, {}, 'en')).message).toBe('At most 200 columns are read; the cell GS2 is beyond them.');
      const long = await importDramas('long.csv', `external_id,name,language,episode_count\nL1,${'x'.repeat(40_000)},zh,3\n`, {}, 'en');
      expect(long.message).toBe('The cell B2 has more than 32767 characters.');
    });
  });
});

describe('exports past the row cap', () => {
  it('refuses, asking to narrow the filters, when more rows match than one export holds (100 000), instead of a file that stops there', async () => {
    const big = await createSite(t.db, { name: 'Big site', platform: 'dj' });
    // 100 001 dramas: one more than an export holds.
    await sql`insert into dramas (site_id, external_id, name, language, episode_count, tags, test_status, created_at, updated_at)
      select ${big.id}, 'B' || n, case when n <= 10 then 'Narrow ' || n else 'Drama ' || n end, 'en', 10, '{}', 'untested', now(), now()
      from generate_series(1, 100001) as n`.execute(t.db);
    try {
      const exportBig = (payload: object, lang = 'en') => t.raw('/api/dramas/export', { token: manager, payload, headers: { 'content-type': 'application/json', 'accept-language': lang } });
      const res = await exportBig({ site_id: big.id });
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toMatchObject({ code: -2, message: 'More than 100000 rows match, more than one export holds. Narrow the filters and export again.' });
      expect((await exportBig({ site_id: big.id }, 'zh-CN')).json().message).toBe('符合条件的数据超过 100000 行，超出一次导出的上限，请缩小筛选范围后再导出');
      // Narrowed, it is a file with every matching row.
      const narrow = await exportBig({ site_id: big.id, keyword: 'Narrow' });
      expect(narrow.headers['content-type']).toContain('spreadsheetml');
      expect((await readXlsx(narrow.rawPayload)).length).toBe(1 + 10);
    } finally {
      await t.db.deleteFrom('dramas').where('site_id', '=', big.id).execute();
    }
  }, 60_000);
});

