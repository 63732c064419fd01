import type { PublishDraftInput } from '@ads/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createDepartment, createDrama, createPersonalAccount, createPixel, createSite, createUser } from '../../test/factories.ts';
import { createMaterial } from '../../test/materials.ts';
import { fillLinkTemplate } from './publish.service.ts';

/**
 * The wizard's calls without a platform: lookups, the preview's own checks (each rule Meta
 * enforces, refused with a clear message), submit refusals, data scope, schemes and templates.
 */
let t: TestApp;
let staff: Awaited<ReturnType<typeof createUser>>;
let colleague: Awaited<ReturnType<typeof createUser>>;
let outsider: Awaited<ReturnType<typeof createUser>>;
let ecOnly: Awaited<ReturnType<typeof createUser>>;
const tokens: Record<string, string> = {};
let usd: number;
let jpy: number;
let disabled: number;
let noToken: number;
let notMine: number;
const pages: Record<number, number> = {};
const pixels: Record<number, number> = {};
let dramaId: number;
let video: number;
let video2: number;
let cover: number;

async function pageFor(accountId: number) {
  const row = await t.db.insertInto('pages').values({ platform_id: String(500 + accountId), name: `Page ${accountId}` }).returning('id').executeTakeFirstOrThrow();
  await t.db.insertInto('page_ad_accounts').values({ page_id: row.id, ad_account_id: accountId }).execute();
  pages[accountId] = row.id;
  pixels[accountId] = (await createPixel(t.db, { ad_accounts: [accountId] })).id;
}

function draft(over: Omit<Partial<PublishDraftInput>, 'campaign' | 'adset'> & { accounts?: number[]; campaign?: Partial<PublishDraftInput['campaign']>; adset?: Partial<PublishDraftInput['adset']> } = {}): PublishDraftInput {
  const { accounts = [usd, jpy], campaign = {}, adset = {}, ...rest } = over;
  return {
    platform: 'dj',
    what: { drama_id: dramaId },
    creatives: { source: 'materials', videos: [{ material_id: video }, { material_id: video2, cover_material_id: cover }], texts: { primary_texts: ['Text A', 'Text B'] }, combination: 'cartesian' },
    where: { accounts: accounts.map((id) => ({ ad_account_id: id, page_id: pages[id]!, pixel_id: pixels[id]!, link: 'https://drama.example.com/play/D7?ep=1' })) },
    structure: { campaigns_per_account: 1, adsets_per_campaign: 2, ads_per_adset: null },
    campaign: { objective: 'OUTCOME_SALES', budget: 30, budget_basis: 'usd', ...campaign },
    adset: { countries: ['US'], ...adset },
    ad: {},
    naming: { campaign: '{drama}-{optimizer}-{seq}', adset: '{drama}-{country}-{seq}', ad: '{material}-{seq}' },
    ...rest,
  } as PublishDraftInput;
}

const preview = async (d: PublishDraftInput, token = tokens.staff) => t.call('/api/publish/preview', { draft: d }, { token, lang: 'en' });
const codes = (res: { data: { issues: { code: string; level: string }[] } }) => res.data.issues.filter((i) => i.level === 'error').map((i) => i.code);

beforeAll(async () => {
  t = await buildTestApp({ config: {} });
  const dept = await createDepartment(t.db);
  const other = await createDepartment(t.db);
  staff = await createUser(t.db, { paths: ['/advertising/publish'], department_id: dept.id });
  colleague = await createUser(t.db, { paths: ['/advertising/publish'], department_id: dept.id });
  outsider = await createUser(t.db, { paths: ['/advertising/publish'], department_id: other.id });
  ecOnly = await createUser(t.db, { paths: ['/advertising/publish-ec'], department_id: dept.id });
  for (const [k, u] of Object.entries({ staff, colleague, outsider, ecOnly })) tokens[k] = await t.login(u.account, u.password);

  usd = (await createAdAccount(t.db, { name: 'USD account', currency: 'USD', users: [staff.id] })).id;
  jpy = (await createAdAccount(t.db, { name: 'JPY account', currency: 'JPY', users: [staff.id] })).id;
  disabled = (await createAdAccount(t.db, { name: 'Disabled account', currency: 'USD', account_status: 2, users: [staff.id] })).id;
  noToken = (await createAdAccount(t.db, { name: 'Tokenless account', currency: 'USD', users: [staff.id] })).id;
  notMine = (await createAdAccount(t.db, { name: 'Someone else’s', currency: 'USD', users: [outsider.id] })).id;
  await t.db.updateTable('ad_accounts').set({ timezone_name: 'Asia/Tokyo' }).where('id', '=', jpy).execute();
  await createPersonalAccount(t.db, { owner_user_id: staff.id, status: 'valid', ad_accounts: [usd, jpy, disabled] });
  await createPersonalAccount(t.db, { owner_user_id: outsider.id, status: 'valid', ad_accounts: [notMine] });
  // A token is stored (its value is never used here: there is no platform in these tests).
  await t.db.updateTable('personal_accounts').set({ token_enc: 'v1.placeholder' }).execute();
  for (const id of [usd, jpy, disabled, noToken, notMine]) await pageFor(id);

  const site = await createSite(t.db, { domain: 'drama.example.com' });
  await t.db.updateTable('sites').set({ link_template: 'https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}' }).where('id', '=', site.id).execute();
  dramaId = (await createDrama(t.db, { site_id: site.id, external_id: 'D7', name: 'Rain' })).id;
  video = (await createMaterial(t.db, { uploader_id: staff.id, department_id: dept.id, drama_id: dramaId, file_name: 'ep1-hook.mp4' })).id;
  video2 = (await createMaterial(t.db, { uploader_id: staff.id, department_id: dept.id, drama_id: dramaId, file_name: 'ep1-cliff.mp4' })).id;
  cover = (await createMaterial(t.db, { uploader_id: staff.id, department_id: dept.id, kind: 'image', file_name: 'cover.png' })).id;
  // The first video has a thumbnail of its own; the second gets the cover image.
  await t.db.updateTable('materials').set({ thumb_key: 'x/thumb.jpg' }).where('id', '=', video).execute();
});

afterEach(() => expect(t.app.answerMismatches ?? []).toEqual([]));
afterAll(() => t.close());

describe('lookups', () => {
  it('lists the ad accounts in the caller’s scope with currency, zone, balance, token health, pages and pixels', async () => {
    const res = await t.call('/api/publish/accounts', { platform: 'dj' }, { token: tokens.staff });
    expect(res.code, res.message).toBe(0);
    const byName = Object.fromEntries(res.data.list.map((a: any) => [a.name, a]));
    expect(Object.keys(byName).sort()).toEqual(['Disabled account', 'JPY account', 'Tokenless account', 'USD account']);
    expect(byName['JPY account']).toMatchObject({ currency: 'JPY', timezone_name: 'Asia/Tokyo', token_status: 'valid', blocked: null, pages: [{ id: pages[jpy] }], pixels: [{ id: pixels[jpy] }] });
    expect(byName['Disabled account'].blocked).toBe('account_disabled');
    expect(byName['Tokenless account']).toMatchObject({ token_status: null, blocked: 'no_token' });
    expect(res.data.fx).toMatchObject({ USD: 1, JPY: 150 });
    // Meta's minimum daily budget of an ad set billed on impressions: $1, and ¥150 at 150 JPY per USD (JPY pays the full minimum).
    expect(byName['USD account'].min_daily_budget).toBe(1);
    expect(byName['JPY account'].min_daily_budget).toBe(150);
  });

  it('the minimum follows the day’s rate, and a currency outside Meta’s full-minimum list pays half', async () => {
    const inr = (await createAdAccount(t.db, { name: 'INR account', currency: 'INR', users: [colleague.id] })).id;
    await createPersonalAccount(t.db, { owner_user_id: colleague.id, status: 'valid', ad_accounts: [inr] });
    await t.db.insertInto('fx_rates').values({ currency: 'INR', day: '2026-10-01', units_per_usd: 83.4 }).onConflict((oc) => oc.doNothing()).execute();
    const res = await t.call('/api/publish/accounts', { platform: 'dj' }, { token: tokens.colleague });
    const row = res.data.list.find((a: any) => a.id === inr);
    // $0.50 × 83.4 = ₹41.70.
    expect(row.min_daily_budget).toBe(41.7);
  });

  it('fills the site link for the drama and episode; object placeholders become url_tags macros', async () => {
    const res = await t.call('/api/publish/link_preview', { drama_id: dramaId, episode: 3 }, { token: tokens.staff });
    expect(res.data).toMatchObject({ link: 'https://drama.example.com/play/D7?ep=3', url_tags: 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}', unsupported: [] });
    expect(fillLinkTemplate('https://x.example.com/{campaign_id}/{drama_id}?ad={ad_id}', { drama_id: 'D1' })).toEqual({ link: 'https://x.example.com/{campaign_id}/D1', url_tags: 'ad={{ad.id}}', unsupported: ['{campaign_id}'] });
  });

  it('the drama catalog and the library for step 2', async () => {
    const catalog = await t.call('/api/publish/catalog', { platform: 'dj', keyword: 'Rain' }, { token: tokens.staff });
    expect(catalog.data.list).toEqual([expect.objectContaining({ id: dramaId, kind: 'drama', videos: 2, site: expect.objectContaining({ domain: 'drama.example.com' }) })]);
    const lib = await t.call('/api/publish/materials', { platform: 'dj', kind: 'video', drama_id: dramaId, ad_account_ids: [usd] }, { token: tokens.staff });
    expect(lib.data.list.map((m: any) => m.id).sort()).toEqual([video, video2].sort());
    // Only the named ones (a loaded template's or past scheme's), with the other filters still applied.
    const named = await t.call('/api/publish/materials', { platform: 'dj', ids: [video2, cover] }, { token: tokens.staff });
    expect(named.code, named.message).toBe(0);
    expect(named.data.list.map((m: any) => m.id).sort()).toEqual([video2, cover].sort());
    expect(named.data.total).toBe(2);
    const videosOnly = await t.call('/api/publish/materials', { platform: 'dj', kind: 'video', ids: [video2, cover] }, { token: tokens.staff });
    expect(videosOnly.data.list.map((m: any) => m.id)).toEqual([video2]);
    expect((await t.call('/api/publish/materials', { platform: 'dj', ids: [999999] }, { token: tokens.staff })).data).toEqual({ list: [], total: 0 });
  });
});

describe('preview', () => {
  it('expands every object with its name: 2 accounts × 2 ad sets × (2 videos × 2 texts)', async () => {
    const res = await preview(draft());
    expect(res.code, res.message).toBe(0);
    expect(codes(res)).toEqual([]);
    expect(res.data.totals).toMatchObject({ accounts: 2, campaigns: 2, adsets: 4, ads: 16 });
    const first = res.data.accounts[0];
    expect(first.campaigns[0].adsets.map((s: any) => s.name)).toEqual(['Rain-US-1', 'Rain-US-2']);
    // The template's separator inside a value becomes a space, so names parse back into the same parts.
    expect(first.campaigns[0].adsets[0].ads.map((a: any) => a.name)).toEqual(['ep1 hook-1', 'ep1 hook-2', 'ep1 cliff-3', 'ep1 cliff-4']);
    expect(res.data.platform_checked).toBe(false);
  });

  it.each([
    ['a budget below the minimum in JPY', () => draft({ accounts: [jpy], campaign: { budget: 100, budget_basis: 'account' } }), 'PUB_BUDGET_TOO_LOW', 'The budget of "JPY account", 100 JPY, is below the platform’s minimum of 150 JPY.'],
    ['the EU without beneficiary and payer', () => draft({ adset: { countries: ['DE', 'US'] } }), 'PUB_EU_DSA', 'Targeting EU countries (DE) needs the beneficiary and the payer.'],
    ['minimum ROAS without value optimization', () => draft({ campaign: { bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS', roas_floor: 1.2 } }), 'PUB_ROAS_NEEDS_VALUE', 'Minimum-ROAS bidding needs the optimization goal VALUE.'],
    ['minimum ROAS without its floor', () => draft({ campaign: { bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS' }, adset: { countries: ['US'], optimization_goal: 'VALUE' } }), 'PUB_ROAS_REQUIRED', 'Minimum-ROAS bidding needs its ROAS floor.'],
    ['a bid cap without a bid', () => draft({ campaign: { bid_strategy: 'LOWEST_COST_WITH_BID_CAP' } }), 'PUB_BID_REQUIRED', 'The bid strategy LOWEST_COST_WITH_BID_CAP needs a bid amount.'],
    ['a budget under 5× the cost cap', () => draft({ accounts: [usd], campaign: { bid_strategy: 'COST_CAP', bid_amount: 10 } }), 'PUB_BUDGET_BELOW_BID', 'The budget of "USD account", 30.00 USD, must be at least 5 times the bid (50.00 USD).'],
    ['a goal the objective does not allow', () => draft({ campaign: { objective: 'OUTCOME_TRAFFIC' } }), 'PUB_GOAL_OBJECTIVE', 'The optimization goal OFFSITE_CONVERSIONS is not available for the objective OUTCOME_TRAFFIC.'],
    ['a lifetime budget without an end', () => draft({ campaign: { budget_kind: 'lifetime' } }), 'PUB_LIFETIME_NEEDS_END', 'A lifetime budget needs an end time.'],
    ['more than 50 ads in one ad set', () => draft({ creatives: { source: 'materials', videos: [{ material_id: video }], texts: { primary_texts: Array.from({ length: 10 }, (_, i) => `T${i}`) }, combination: 'cartesian' }, structure: { ads_per_adset: 51 } } as never), null, null],
    ['an account that cannot create ads', () => draft({ accounts: [disabled] }), 'PUB_ACCOUNT_INACTIVE', 'The ad account "Disabled account" cannot create ads in its current status (2).'],
    ['an account no valid token reaches', () => draft({ accounts: [noToken] }), 'PUB_ACCOUNT_NO_TOKEN', 'No personal account with a valid token reaches the ad account "Tokenless account"; re-authorize one first.'],
    ['a conversion goal without a pixel', () => ({ ...draft({ accounts: [usd] }), where: { accounts: [{ ad_account_id: usd, page_id: pages[usd]!, pixel_id: null, link: 'https://drama.example.com/x' }] } }), 'PUB_PIXEL_REQUIRED', 'Choose a pixel for the ad account "USD account": the optimization goal OFFSITE_CONVERSIONS needs a pixel and a conversion event.'],
  ] as [string, () => PublishDraftInput, string | null, string | null][])('refuses %s with a clear message', async (_name, make, code, message) => {
    const d = make();
    const res = await preview(d as PublishDraftInput);
    if (code === null) {
      // The schema itself refuses more than 50 ads per ad set (a validation error, field by field).
      expect(res.code).toBe(-2);
      expect(res.data.errors[0].field).toBe('draft.structure.ads_per_adset');
      return;
    }
    expect(res.code, res.message).toBe(0);
    expect(res.data.ok).toBe(false);
    const issue = res.data.issues.find((i: any) => i.code === code);
    expect(issue, JSON.stringify(res.data.issues)).toBeDefined();
    expect(issue.level).toBe('error');
    if (message) expect(issue.message).toBe(message);
  });

  it('counts the combination: more than 50 ads in one ad set from videos × texts', async () => {
    const many = await Promise.all(Array.from({ length: 6 }, () => createMaterial(t.db, { uploader_id: staff.id, drama_id: dramaId })));
    await t.db.updateTable('materials').set({ thumb_key: 'x/t.jpg' }).where('id', 'in', many.map((x) => x.id)).execute();
    const d = draft({ accounts: [usd] });
    d.creatives = { source: 'materials', videos: many.map((x) => ({ material_id: x.id })), texts: { primary_texts: Array.from({ length: 9 }, (_, i) => `T${i}`) }, combination: 'cartesian' };
    const res = await preview(d);
    expect(res.data.issues.find((i: any) => i.code === 'PUB_ADS_PER_ADSET').message).toBe('An ad set holds at most 50 ads; this one would have 54.');
  });

  it('converts a USD budget per account: $20 → 2000 cents and ¥3000', async () => {
    const res = await preview(draft({ campaign: { budget: 20, budget_basis: 'usd' } }));
    expect(codes(res)).toEqual([]);
    const money = res.data.accounts.map((a: any) => a.campaigns[0].budget);
    expect(money).toEqual([
      { kind: 'daily', currency: 'USD', minor: 2000, major: 20, usd: 20 },
      { kind: 'daily', currency: 'JPY', minor: 3000, major: 3000, usd: 20 },
    ]);
  });
});

describe('scope and permissions', () => {
  it('a staff user cannot publish to an ad account outside their scope', async () => {
    const p = await preview(draft({ accounts: [usd, notMine] }));
    expect(p.code).toBe(403);
    const s = await t.call('/api/publish/submit', { draft: draft({ accounts: [notMine] }) }, { token: tokens.staff });
    expect(s.code).toBe(403);
    expect(await t.db.selectFrom('publish_schemes').select('id').execute()).toEqual([]);
  });

  it('each wizard is its own path: a drama draft needs /advertising/publish', async () => {
    const res = await preview(draft({ accounts: [usd] }), tokens.ecOnly);
    expect(res.code).toBe(403);
  });
});

describe('submit and schemes', () => {
  let schemeId: number;

  it('refuses a draft with errors, with every issue', async () => {
    const res = await t.call('/api/publish/submit', { draft: draft({ accounts: [jpy], campaign: { budget: 100, budget_basis: 'account' } }) }, { token: tokens.staff, lang: 'en' });
    expect(res.code).toBe(-2);
    expect(res.message).toContain('The checks before publishing found 1 errors');
    expect(res.data.issues.map((i: any) => i.code)).toContain('PUB_BUDGET_TOO_LOW');
    expect(res.data.errors).toEqual([{ field: 'draft.campaign.budget', message: expect.stringContaining('below the platform’s minimum') }]);
  });

  it('stores the scheme with one item per object, queued', async () => {
    const res = await t.call('/api/publish/submit', { draft: draft({ scheme_name: 'Rain test' }) }, { token: tokens.staff });
    expect(res.code, res.message).toBe(0);
    schemeId = res.data.scheme_id;
    const items = await t.db.selectFrom('publish_scheme_items').select(['level', 'parent_id', 'creative_item_id', 'status']).where('scheme_id', '=', schemeId).execute();
    const count = (l: string) => items.filter((i) => i.level === l).length;
    expect([count('campaign'), count('adset'), count('creative'), count('ad')]).toEqual([2, 4, 8, 16]);
    expect(items.filter((i) => i.level !== 'campaign' && i.level !== 'creative').every((i) => i.parent_id !== null)).toBe(true);
    expect(items.filter((i) => i.level === 'ad').every((i) => i.creative_item_id !== null)).toBe(true);
    const list = await t.call('/api/publish-schemes/list', {}, { token: tokens.staff });
    expect(list.data.list[0]).toMatchObject({ id: schemeId, name: 'Rain test', status: 'queued', planned: { accounts: 2, campaigns: 2, adsets: 4, ads: 16 }, counts: { total: 30, pending: 30 }, task_id: res.data.task_id });
    // The naming templates are remembered, so the names parse back into their dimensions.
    const setting = await t.db.selectFrom('app_settings').select('value').where('key', '=', 'naming_templates').executeTakeFirstOrThrow();
    expect(JSON.stringify(setting.value)).toContain('{drama}-{country}-{seq}');
  });

  it('shows schemes within data scope only; new from a past scheme gives its draft', async () => {
    expect((await t.call('/api/publish-schemes/list', {}, { token: tokens.outsider })).data.total).toBe(0);
    expect((await t.call('/api/publish-schemes/get', { id: schemeId }, { token: tokens.outsider })).code).toBe(-2);
    const detail = await t.call('/api/publish-schemes/get', { id: schemeId }, { token: tokens.staff });
    expect(detail.data.accounts).toHaveLength(2);
    const items = await t.call('/api/publish-schemes/items', { scheme_id: schemeId, level: 'campaign' }, { token: tokens.staff });
    expect(items.data.total).toBe(2);
    const again = await t.call('/api/publish-schemes/draft', { id: schemeId }, { token: tokens.staff });
    expect(again.data.draft).toMatchObject({ scheme_name: null, launch: { mode: 'paused' }, structure: { adsets_per_campaign: 2 } });
    expect((await t.call('/api/publish-schemes/retry_failed', { id: schemeId }, { token: tokens.staff })).code).toBe(-2);
  });
});

describe('templates', () => {
  it('personal templates are the owner’s; shared ones reach the department; only the owner edits', async () => {
    const d = draft();
    const settings = { where: d.where, structure: d.structure, campaign: d.campaign, adset: d.adset, ad: d.ad, naming: d.naming };
    const mine = await t.call('/api/publish-templates/save', { name: 'Mine', platform: 'dj', settings }, { token: tokens.staff });
    expect(mine.code, mine.message).toBe(0);
    const shared = await t.call('/api/publish-templates/save', { name: 'Team', platform: 'dj', visibility: 'department', settings }, { token: tokens.staff });
    const names = async (token: string | undefined) => (await t.call('/api/publish-templates/list', { platform: 'dj' }, { token })).data.list.map((x: any) => x.name).sort();
    expect(await names(tokens.staff)).toEqual(['Mine', 'Team']);
    expect(await names(tokens.colleague)).toEqual(['Team']);
    expect(await names(tokens.outsider)).toEqual([]);
    const edit = await t.call('/api/publish-templates/save', { id: shared.data.id, name: 'Hijack', platform: 'dj', settings }, { token: tokens.colleague });
    expect(edit.code).toBe(-2);
    const renamed = await t.call('/api/publish-templates/save', { id: shared.data.id, name: 'Team v2', platform: 'dj', visibility: 'department', settings }, { token: tokens.staff });
    expect(renamed.data).toMatchObject({ name: 'Team v2', editable: true });
    expect((await t.call('/api/publish-templates/delete', { id: mine.data.id }, { token: tokens.staff })).data).toEqual({ deleted: 1 });
    expect(await names(tokens.staff)).toEqual(['Team v2']);
  });
});
