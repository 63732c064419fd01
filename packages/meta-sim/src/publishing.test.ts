import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type GraphAnswer, type TestSim } from './testing/harness.ts';

// Publishing conformance over HTTP: each rule Meta enforces on publishing (README "Publishing
// rules", with codes and sources) refused with Meta's code / subcode / user texts, and allowed
// once the request meets it.

let t: TestSim;
let account: string;
let pixel: string;
let page: string;

beforeAll(async () => {
  t = await startTestSim({ user: { ad_accounts: [{ currency: 'USD' }, { currency: 'JPY', timezone_name: 'Asia/Tokyo' }, { currency: 'INR' }, { currency: 'USD' }] } });
  account = t.user.ad_accounts[0].id;
  pixel = t.user.pixels[0].id;
  page = t.user.pages[0].id;
});
afterAll(() => t.close());

function expectError(res: GraphAnswer, code: number, subcode?: number): Record<string, any> {
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.body.error.code).toBe(code);
  if (subcode !== undefined) expect(res.body.error.error_subcode).toBe(subcode);
  return res.body.error;
}

const blame = (error: Record<string, any>) => JSON.parse(error.error_data).blame_field_specs;

/** A campaign whose ad sets carry the budget (the flag Meta requires then). */
async function abo(act = account, extra: Record<string, unknown> = {}) {
  const res = await t.graph('POST', `/${act}/campaigns`, { name: 'ABO', objective: 'OUTCOME_SALES', status: 'PAUSED', special_ad_categories: [], is_adset_budget_sharing_enabled: false, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

function adset(campaignId: string, extra: Record<string, unknown> = {}, act = account) {
  return t.graph('POST', `/${act}/adsets`, {
    name: 'Set',
    campaign_id: campaignId,
    status: 'PAUSED',
    daily_budget: 5000,
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'OFFSITE_CONVERSIONS',
    promoted_object: { pixel_id: pixel, custom_event_type: 'PURCHASE' },
    targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
    ...extra,
  });
}

const link = () => ({ page_id: page, link_data: { link: 'https://drama.example/ep1', message: 'Watch' } });

describe('campaign budget sharing (100 / 4834011)', () => {
  it('needs is_adset_budget_sharing_enabled when the campaign has no budget, not when it has one', async () => {
    const missing = await t.graph('POST', `/${account}/campaigns`, { name: 'No flag', objective: 'OUTCOME_SALES', special_ad_categories: [] });
    const error = expectError(missing, 100, 4834011);
    expect(error.error_user_title).toBe('Must specify True or False in is_adset_budget_sharing_enabled field');
    expect(blame(error)).toEqual([['is_adset_budget_sharing_enabled']]);

    const id = await abo(account, { is_adset_budget_sharing_enabled: true });
    expect((await t.graph('GET', `/${id}`, { fields: 'is_adset_budget_sharing_enabled' })).body.is_adset_budget_sharing_enabled).toBe(true);
    const cbo = await t.graph('POST', `/${account}/campaigns`, { name: 'CBO', objective: 'OUTCOME_SALES', special_ad_categories: [], daily_budget: 10000 });
    expect(cbo.status).toBe(200);
  });
});

describe('create statuses', () => {
  it('creates only ACTIVE or PAUSED; ARCHIVED and DELETED are for updates', async () => {
    const archived = await t.graph('POST', `/${account}/campaigns`, { name: 'A', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false, status: 'ARCHIVED' });
    expect(expectError(archived, 100).message).toBe('(#100) Param status must be one of {ACTIVE, PAUSED}');
    const campaign = await abo();
    expectError(await adset(campaign, { status: 'DELETED' }), 100);
    const set = await adset(campaign);
    const creative = await t.graph('POST', `/${account}/adcreatives`, { object_story_spec: link() });
    expectError(await t.graph('POST', `/${account}/ads`, { name: 'Ad', adset_id: set.body.id, status: 'ARCHIVED', creative: { creative_id: creative.body.id } }), 100);
    expect((await t.graph('POST', `/${campaign}`, { status: 'ARCHIVED' })).body).toEqual({ success: true });
  });
});

describe("the EU's beneficiary and payer (DSA)", () => {
  it('requires dsa_beneficiary (100 / 3858081) and dsa_payor (100 / 3858079) on ad sets that reach the EU', async () => {
    const campaign = await abo();
    const eu = { geo_locations: { countries: ['US', 'DE'] }, targeting_automation: { advantage_audience: 0 } };
    const none = expectError(await adset(campaign, { targeting: eu }), 100, 3858081);
    expect(none.error_user_title).toBe('No advertiser indicated');
    expect(blame(none)).toEqual([['dsa_beneficiary']]);
    expect(blame(expectError(await adset(campaign, { targeting: eu, dsa_beneficiary: 'Star Drama Ltd' }), 100, 3858079))).toEqual([['dsa_payor']]);
    const worldwide = { geo_locations: { country_groups: ['worldwide'] }, targeting_automation: { advantage_audience: 0 } };
    expectError(await adset(campaign, { targeting: worldwide }), 100, 3858081);

    const ok = await adset(campaign, { targeting: eu, dsa_beneficiary: 'Star Drama Ltd', dsa_payor: 'Star Drama Ltd' });
    expect(ok.status).toBe(200);
    expect((await t.graph('GET', `/${ok.body.id}`, { fields: 'dsa_beneficiary,dsa_payor' })).body).toMatchObject({ dsa_beneficiary: 'Star Drama Ltd', dsa_payor: 'Star Drama Ltd' });
    // Outside the EU nothing is asked; a later change of targeting into the EU is checked too.
    const us = await adset(campaign);
    expect(us.status).toBe(200);
    expectError(await t.graph('POST', `/${us.body.id}`, { targeting: eu }), 100, 3858081);
  });

  it("takes the ad account's default beneficiary and payer when the ad set names none", async () => {
    const other = t.user.ad_accounts[3].id;
    const campaign = await abo(other);
    const eu = { geo_locations: { countries: ['FR'] }, targeting_automation: { advantage_audience: 0 } };
    expectError(await adset(campaign, { targeting: eu }, other), 100, 3858081);
    expect((await t.graph('POST', `/${other}`, { default_dsa_beneficiary: 'Star Drama Ltd', default_dsa_payor: 'Star Drama Ltd' })).body).toEqual({ success: true });
    expect((await adset(campaign, { targeting: eu }, other)).status).toBe(200);
  });
});

describe('minimum budgets (100 / 1885272) and bids', () => {
  it('asks $1 a day for impressions, $5 for clicks, $40 for app installs (USD minor units)', async () => {
    const campaign = await abo();
    const low = expectError(await adset(campaign, { daily_budget: 99 }), 100, 1885272);
    expect(low.error_user_title).toBe('Your Budget Is Too Low');
    expect(low.error_user_msg).toContain('USD1.00');
    expect(blame(low)).toEqual([['daily_budget']]);
    expect((await adset(campaign, { daily_budget: 100 })).status).toBe(200);

    const traffic = await abo(account, { objective: 'OUTCOME_TRAFFIC' });
    const clicks = { billing_event: 'LINK_CLICKS', optimization_goal: 'LINK_CLICKS', promoted_object: undefined };
    expect(expectError(await adset(traffic, { ...clicks, daily_budget: 499 }), 100, 1885272).error_user_msg).toContain('USD5.00');
    expect((await adset(traffic, { ...clicks, daily_budget: 500 })).status).toBe(200);

    const app = await abo(account, { objective: 'OUTCOME_APP_PROMOTION' });
    const installs = { billing_event: 'APP_INSTALLS', optimization_goal: 'APP_INSTALLS', promoted_object: undefined };
    expect(expectError(await adset(app, { ...installs, daily_budget: 3999 }), 100, 1885272).error_user_msg).toContain('USD40.00');
  });

  it('converts the minimum to the currency: JPY in whole yen, half of it in other currencies (INR)', async () => {
    const jpy = t.user.ad_accounts[1].id;
    const inr = t.user.ad_accounts[2].id;
    expect((await t.graph('GET', `/${jpy}`, { fields: 'min_daily_budget' })).body.min_daily_budget).toBe(150);
    const c = await abo(jpy);
    expect(expectError(await adset(c, { daily_budget: 149 }, jpy), 100, 1885272).error_user_msg).toContain('JPY150');
    expect((await adset(c, { daily_budget: 150 }, jpy)).status).toBe(200);
    // $0.50 in INR (83 per USD): 41.50 rupees.
    const ci = await abo(inr);
    expect(expectError(await adset(ci, { daily_budget: 4149 }, inr), 100, 1885272).error_user_msg).toContain('INR41.50');
    expect((await adset(ci, { daily_budget: 4150 }, inr)).status).toBe(200);
  });

  it('asks the daily minimum for every day of a lifetime budget, and of campaign budgets too', async () => {
    const campaign = await abo();
    const start = new Date(t.sim.now() + 3_600_000).toISOString();
    const end = new Date(t.sim.now() + 3_600_000 + 3 * 86_400_000).toISOString();
    const error = expectError(await adset(campaign, { daily_budget: undefined, lifetime_budget: 299, start_time: start, end_time: end }), 100, 1885272);
    expect(error.error_user_msg).toContain('USD3.00');
    expect((await adset(campaign, { daily_budget: undefined, lifetime_budget: 300, start_time: start, end_time: end })).status).toBe(200);
    expectError(await t.graph('POST', `/${account}/campaigns`, { name: 'Tiny CBO', objective: 'OUTCOME_SALES', special_ad_categories: [], daily_budget: 50 }), 100, 1885272);
  });

  it('needs a bid for caps (100 / 2490487) and a daily budget of at least 5× the bid', async () => {
    const campaign = await abo();
    const noBid = expectError(await adset(campaign, { bid_strategy: 'COST_CAP' }), 100, 2490487);
    expect(noBid.error_user_title).toBe('Bid Amount Or Bid Constraints Required For Bid Strategy');
    const under = expectError(await adset(campaign, { bid_strategy: 'COST_CAP', bid_amount: 2000, daily_budget: 9999 }), 100);
    expect(under.error_user_msg).toContain('USD100.00');
    expect((await adset(campaign, { bid_strategy: 'LOWEST_COST_WITH_BID_CAP', bid_amount: 2000, daily_budget: 10000 })).status).toBe(200);
  });

  it('minimum ROAS needs bid_constraints.roas_average_floor and value optimization', async () => {
    const campaign = await abo();
    const roas = { bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS', optimization_goal: 'VALUE' };
    const noFloor = expectError(await adset(campaign, roas), 100, 2490487);
    expect(blame(noFloor)).toEqual([['bid_constraints', 'roas_average_floor']]);
    const wrongGoal = expectError(await adset(campaign, { ...roas, optimization_goal: 'OFFSITE_CONVERSIONS', bid_constraints: { roas_average_floor: 15000 } }), 100);
    expect(blame(wrongGoal)).toEqual([['optimization_goal']]);
    expectError(await adset(campaign, { ...roas, bid_constraints: { roas_average_floor: 15000 }, bid_amount: 300 }), 100);
    const ok = await adset(campaign, { ...roas, bid_constraints: { roas_average_floor: 15000 } });
    expect(ok.status).toBe(200);
    expect((await t.graph('GET', `/${ok.body.id}`, { fields: 'bid_strategy,bid_constraints' })).body).toMatchObject({ bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS', bid_constraints: { roas_average_floor: 15000 } });
    // A campaign-level minimum-ROAS strategy binds its ad sets too.
    const cbo = await t.graph('POST', `/${account}/campaigns`, { name: 'ROAS CBO', objective: 'OUTCOME_SALES', special_ad_categories: [], daily_budget: 10000, bid_strategy: 'LOWEST_COST_WITH_MIN_ROAS' });
    expectError(await adset(cbo.body.id, { daily_budget: undefined, optimization_goal: 'VALUE' }), 100, 2490487);
  });
});

describe('disabled ad accounts', () => {
  it('refuse writes (100 / 1487390) except pausing and deleting; reads go on', async () => {
    const act = t.user.ad_accounts[3].id;
    const tree = await createTree(t, act, { name: 'Before disable', status: 'ACTIVE', ads: 1 });
    await t.control('POST', `/__sim/ad-accounts/${act}/disable`);
    try {
      const create = expectError(await t.graph('POST', `/${act}/campaigns`, { name: 'x', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false }), 100, 1487390);
      expect(create.error_user_title).toBe('Ad Account Disabled');
      expectError(await t.graph('POST', `/${tree.adsetId}`, { daily_budget: 9000 }), 100, 1487390);
      expectError(await t.graph('POST', `/${tree.campaignId}`, { name: 'Renamed' }), 100, 1487390);
      expect((await t.graph('POST', `/${tree.adIds[0]}`, { status: 'PAUSED' })).body).toEqual({ success: true });
      expect((await t.graph('DELETE', `/${tree.adsetId}`)).body).toEqual({ success: true });
      expect((await t.graph('GET', `/${tree.campaignId}`, { fields: 'name' })).body.name).toBe('Before disable');
    } finally {
      await t.control('POST', `/__sim/ad-accounts/${act}/enable`);
    }
    expect((await t.graph('POST', `/${tree.campaignId}`, { name: 'Renamed' })).body).toEqual({ success: true });
  });
});

describe('ad limits', () => {
  it('keeps an ad set to 50 ads that are not archived or deleted', async () => {
    const tree = await createTree(t, account, { name: 'Fifty', status: 'PAUSED', ads: 0 });
    for (let round = 0; round < 2; round++) {
      const batch = Array.from({ length: 25 }, (_, i) => ({
        method: 'POST',
        relative_url: `${account}/ads`,
        body: `name=A${round}-${i}&adset_id=${tree.adsetId}&status=PAUSED&creative=${encodeURIComponent(JSON.stringify({ creative_id: tree.creativeId }))}`,
      }));
      const res = await t.graph('POST', '/', { batch });
      expect(res.body.every((r: any) => r.code === 200)).toBe(true);
    }
    const ad = (name: string) => t.graph('POST', `/${account}/ads`, { name, adset_id: tree.adsetId, status: 'PAUSED', creative: { creative_id: tree.creativeId } });
    const over = expectError(await ad('A51'), 100);
    expect(over.error_user_title).toBe('Too Many Ads in Ad Set');
    const list = await t.graph('GET', `/${tree.adsetId}/ads`, { limit: 100 });
    expect(list.body.data).toHaveLength(50);
    await t.graph('POST', `/${list.body.data[0].id}`, { status: 'ARCHIVED' });
    expect((await ad('A51')).status).toBe(200);
  });

  it('throttles ad creation per account and hour (613 / 1487225), counting created ads only', async () => {
    const act = t.user.ad_accounts[3].id;
    await t.control('PUT', '/__sim/rate-limits', { accounts: { [act.replace('act_', '')]: { ad_creations_per_hour: 3 } } });
    try {
      const tree = await createTree(t, act, { name: 'Throttle', status: 'PAUSED', ads: 3 });
      const ad = (extra: Record<string, unknown> = {}) =>
        t.graph('POST', `/${act}/ads`, { name: 'More', adset_id: tree.adsetId, status: 'PAUSED', creative: { creative_id: tree.creativeId }, ...extra });
      const error = expectError(await ad(), 613, 1487225);
      expect(error.is_transient).toBe(true);
      expect(error.error_user_msg).toMatch(/about \d+ minutes/);
      await t.advance('61m');
      // A validate-only call checks the throttle without using it up.
      expect((await ad({ execution_options: ['validate_only'] })).body).toEqual({ success: true });
      expect((await ad()).status).toBe(200);
    } finally {
      await t.control('PUT', '/__sim/rate-limits', { accounts: { [act.replace('act_', '')]: { ad_creations_per_hour: 1000 } } });
    }
  });
});

describe('batch requests', () => {
  it('runs independent items concurrently and dependent ones after what they reference', async () => {
    // The first item is slowed down; the second does not depend on it, so it reads before the write lands.
    await t.control('POST', '/__sim/faults', { path: '/act_*/campaigns', method: 'POST', latency_ms: 300 });
    const res = await t.graph('POST', '/', {
      batch: [
        { method: 'POST', relative_url: `${account}/campaigns`, body: 'name=Concurrent&objective=OUTCOME_SALES&special_ad_categories=[]&is_adset_budget_sharing_enabled=false&status=PAUSED', name: 'c' },
        { method: 'GET', relative_url: `${account}/campaigns?fields=name&limit=500` },
        { method: 'GET', relative_url: `${account}/campaigns?fields=name&limit=500`, depends_on: 'c' },
      ],
    });
    expect(res.body[0].code).toBe(200);
    const names = (i: number) => JSON.parse(res.body[i].body).data.map((c: any) => c.name);
    expect(names(1)).not.toContain('Concurrent');
    expect(names(2)).toContain('Concurrent');
  });

  it('resolves {result=name:$.id} references in any order, and answers null after a failed dependency', async () => {
    const body = (o: Record<string, unknown>) => new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])).toString();
    const res = await t.graph('POST', '/', {
      batch: [
        // The ad set is listed before the campaign it references: it waits for it.
        {
          method: 'POST',
          relative_url: `${account}/adsets`,
          name: 'set',
          body: body({
            name: 'Ref set', campaign_id: '{result=camp:$.id}', status: 'PAUSED', daily_budget: 5000, billing_event: 'IMPRESSIONS', optimization_goal: 'OFFSITE_CONVERSIONS',
            promoted_object: { pixel_id: pixel, custom_event_type: 'PURCHASE' }, targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
          }),
        },
        { method: 'POST', relative_url: `${account}/campaigns`, name: 'camp', body: body({ name: 'Ref camp', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false, status: 'PAUSED' }) },
        { method: 'GET', relative_url: '{result=set:$.id}?fields=name,campaign_id', omit_response_on_success: false },
        { method: 'POST', relative_url: `${account}/campaigns`, name: 'bad', body: 'name=No objective&special_ad_categories=[]' },
        { method: 'GET', relative_url: '{result=bad:$.id}?fields=name' },
      ],
    });
    expect(res.body[0]).toBeNull();
    expect(res.body[1]).toBeNull();
    const read = JSON.parse(res.body[2].body);
    expect(read.name).toBe('Ref set');
    expect(read.campaign_id).toMatch(/^\d+$/);
    expect(res.body[3].code).toBe(400);
    expect(res.body[4]).toBeNull();
  });

  it('refuses several ad sets of one campaign in one batch: the first runs, the others answer 100', async () => {
    const campaign = await abo();
    const set = (name: string) => ({
      method: 'POST',
      relative_url: `${account}/adsets`,
      body: new URLSearchParams({
        name, campaign_id: campaign, status: 'PAUSED', daily_budget: '5000', billing_event: 'IMPRESSIONS', optimization_goal: 'OFFSITE_CONVERSIONS',
        promoted_object: JSON.stringify({ pixel_id: pixel, custom_event_type: 'PURCHASE' }),
        targeting: JSON.stringify({ geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } }),
      }).toString(),
    });
    const res = await t.graph('POST', '/', { batch: [set('One'), set('Two'), set('Three')] });
    expect(res.body.map((r: any) => r.code)).toEqual([200, 400, 400]);
    expect(JSON.parse(res.body[1].body).error.message).toBe('(#100) Batch requests cannot include multiple ad sets under the same campaign');
    expect((await t.graph('GET', `/${campaign}/adsets`)).body.data).toHaveLength(1);
    // One per request goes through.
    expect((await t.graph('POST', '/', { batch: [set('Two')] })).body[0].code).toBe(200);
  });
});

describe('validate-only calls', () => {
  const validate = { execution_options: ['validate_only'] };

  it('run every check and create nothing', async () => {
    const before = (await t.graph('GET', `/${account}/campaigns`, { limit: 500 })).body.data.length;
    const ok = await t.graph('POST', `/${account}/campaigns`, { name: 'Dry', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false, ...validate });
    expect(ok.body).toEqual({ success: true });
    expectError(await t.graph('POST', `/${account}/campaigns`, { name: 'Dry', objective: 'OUTCOME_SALES', special_ad_categories: [], ...validate }), 100, 4834011);
    expect((await t.graph('GET', `/${account}/campaigns`, { limit: 500 })).body.data).toHaveLength(before);

    const campaign = await abo();
    expect((await adset(campaign, validate)).body).toEqual({ success: true });
    expectError(await adset(campaign, { ...validate, daily_budget: 10 }), 100, 1885272);
    expect((await t.graph('GET', `/${campaign}/adsets`)).body.data).toHaveLength(0);

    const set = await adset(campaign);
    const counts = async () => (await t.control('GET', '/__sim/state')).counts;
    const was = await counts();
    const dryAd = await t.graph('POST', `/${account}/ads`, { name: 'Dry ad', adset_id: set.body.id, status: 'PAUSED', creative: { object_story_spec: link() }, ...validate });
    expect(dryAd.body).toEqual({ success: true });
    expect((await t.graph('POST', `/${account}/adcreatives`, { object_story_spec: link(), ...validate })).body).toEqual({ success: true });
    const now = await counts();
    expect([now.ads, now.creatives, now.posts]).toEqual([was.ads, was.creatives, was.posts]);

    expect((await t.graph('POST', `/${campaign}`, { name: 'Not renamed', ...validate })).body).toEqual({ success: true });
    expect((await t.graph('GET', `/${campaign}`, { fields: 'name' })).body.name).toBe('ABO');
  });

  it('are refused where Meta does not offer them, and with unknown options', async () => {
    const tree = await createTree(t, account, { name: 'Copy dry', status: 'PAUSED', ads: 0 });
    expectError(await t.graph('POST', `/${tree.campaignId}/copies`, validate), 100);
    expect((await t.graph('GET', `/${tree.campaignId}/copies`)).body.data).toHaveLength(0);
    expectError(await t.graph('POST', `/${account}/campaigns`, { name: 'x', execution_options: ['dry_run'] }), 100);
  });
});

describe('page posts', () => {
  let pageToken: string;

  beforeAll(async () => {
    const accounts = await t.graph('GET', '/me/accounts', { fields: 'id,access_token' });
    pageToken = accounts.body.data.find((p: any) => p.id === page).access_token;
  });

  it('publish as the page only with its token and pages_manage_posts (200, HTTP 403)', async () => {
    const asUser = await t.graph('POST', `/${page}/photos`, { url: 'https://cdn.example/p.jpg' });
    expect(asUser.status).toBe(403);
    expect(expectError(asUser, 200).message).toBe(
      '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission',
    );
    const limited = await t.control('POST', '/__sim/tokens', { user_id: t.user.user.id, scopes: ['pages_show_list', 'pages_read_engagement', 'pages_manage_ads', 'ads_management'] });
    const limitedPage = (await t.graph('GET', '/me/accounts', { access_token: limited.access_token, fields: 'id,access_token' })).body.data[0].access_token;
    expectError(await t.graph('POST', `/${page}/feed`, { access_token: limitedPage, message: 'x' }), 200);
    expectError(await t.graph('POST', `/${page}/photos`, { access_token: pageToken }), 324);
  });

  it('creates photo, video and text posts, published or unpublished, and lists them with their status', async () => {
    const photo = await t.graph('POST', `/${page}/photos`, { access_token: pageToken, url: 'https://cdn.example/p.jpg', caption: 'Episode 1', published: false });
    expect(photo.body).toEqual({ id: expect.stringMatching(/^\d+$/), post_id: expect.stringMatching(new RegExp(`^${page}_\\d+$`)) });
    const text = await t.graph('POST', `/${page}/feed`, { access_token: pageToken, message: 'Out now', link: 'https://drama.example/2' });
    const video = await t.graph('POST', `/${page}/videos`, { access_token: pageToken, file_url: 'https://cdn.example/v.mp4', title: 'Trailer', description: 'Watch the trailer', published: false });
    const videoPost = (await t.graph('GET', `/${video.body.id}`, { fields: 'post_id,published,status' })).body;
    expect(videoPost).toMatchObject({ post_id: expect.stringMatching(new RegExp(`^${page}_`)), published: false, status: { video_status: 'processing' } });

    const ids = async (edge: string, params: Record<string, unknown> = {}) =>
      (await t.graph('GET', `/${page}/${edge}`, { fields: 'id,is_published,status_type,promotion_status', ...params })).body.data.map((p: any) => p.id);
    expect(await ids('posts')).toContain(text.body.id);
    expect(await ids('posts')).not.toContain(photo.body.post_id);
    expect(await ids('ads_posts')).toEqual(expect.arrayContaining([photo.body.post_id, videoPost.post_id]));
    expect(await ids('promotable_posts', { is_published: false })).toEqual(expect.arrayContaining([photo.body.post_id, videoPost.post_id]));
    expect(await ids('promotable_posts', { is_published: false })).not.toContain(text.body.id);
    const listed = (await t.graph('GET', `/${page}/ads_posts`, { fields: 'id,is_published,status_type,promotion_status' })).body.data.find((p: any) => p.id === photo.body.post_id);
    expect(listed).toMatchObject({ is_published: false, status_type: 'added_photos', promotion_status: 'inactive' });
  });

  it('serves a page post as an ad creative (object_story_id), a video one once processed', async () => {
    const video = await t.graph('POST', `/${page}/videos`, { access_token: pageToken, file_url: 'https://cdn.example/v2.mp4', published: false });
    const postId = (await t.graph('GET', `/${video.body.id}`, { fields: 'post_id' })).body.post_id;
    expectError(await t.graph('POST', `/${account}/adcreatives`, { object_story_id: postId }), 100, 1885252);
    await t.advance('2m');
    const creative = await t.graph('POST', `/${account}/adcreatives`, { object_story_id: postId });
    expect(creative.status).toBe(200);
    expect((await t.graph('GET', `/${creative.body.id}`, { fields: 'object_story_id,object_type,video_id' })).body).toMatchObject({ object_story_id: postId, object_type: 'VIDEO', video_id: video.body.id });
    const tree = await createTree(t, account, { name: 'Post ad', status: 'ACTIVE', ads: 0 });
    expect((await t.graph('POST', `/${account}/ads`, { name: 'Post ad', adset_id: tree.adsetId, status: 'ACTIVE', creative: { creative_id: creative.body.id } })).status).toBe(200);
    await t.advance('11m');
    expect((await t.graph('GET', `/${postId}`, { fields: 'promotion_status' })).body.promotion_status).toBe('active');
  });
});

describe('resumable page video upload', () => {
  it('takes the chunks at the offsets it dictates, says where to go on after a wrong one, and makes the post at finish', async () => {
    const accounts = await t.graph('GET', '/me/accounts', { fields: 'id,access_token' });
    const pageToken = accounts.body.data.find((p: any) => p.id === page).access_token;
    await t.control('PUT', '/__sim/settings', { video_chunk_bytes: 1024 });
    try {
      const bytes = Buffer.alloc(2500, 7);
      const phase = async (params: Record<string, string>, chunk?: Buffer) => {
        const form = new FormData();
        form.append('access_token', pageToken);
        for (const [k, v] of Object.entries(params)) form.append(k, v);
        if (chunk) form.append('video_file_chunk', new Blob([chunk]), 'chunk');
        const res = await fetch(`${t.url}/v25.0/${page}/videos`, { method: 'POST', body: form });
        return { status: res.status, headers: res.headers, body: (await res.json()) as any };
      };
      const start = await phase({ upload_phase: 'start', file_size: String(bytes.length) });
      expect(start.body).toEqual({ video_id: expect.any(String), upload_session_id: expect.any(String), start_offset: '0', end_offset: '1024' });
      const session = start.body.upload_session_id as string;
      const first = await phase({ upload_phase: 'transfer', upload_session_id: session, start_offset: '0' }, bytes.subarray(0, 1024));
      expect(first.body).toEqual({ start_offset: '1024', end_offset: '2048' });
      // The same chunk again (a resend after a lost answer): refused with the offsets it wants.
      const again = expectError(await phase({ upload_phase: 'transfer', upload_session_id: session, start_offset: '0' }, bytes.subarray(0, 1024)), 6001, 1363037);
      expect(JSON.parse(again.error_data)).toMatchObject({ start_offset: '1024', end_offset: '2048' });
      expectError(await phase({ upload_phase: 'finish', upload_session_id: session }), 6001, 1363037);
      expect((await phase({ upload_phase: 'transfer', upload_session_id: session, start_offset: '1024' }, bytes.subarray(1024, 2048))).body).toEqual({ start_offset: '2048', end_offset: '2500' });
      expect((await phase({ upload_phase: 'transfer', upload_session_id: session, start_offset: '2048' }, bytes.subarray(2048))).body).toEqual({ start_offset: '2500', end_offset: '2500' });
      expect((await phase({ upload_phase: 'finish', upload_session_id: session, description: 'Chunked trailer', title: 'Trailer', published: 'false' })).body).toEqual({ success: true });
      const video = (await t.graph('GET', `/${start.body.video_id}`, { fields: 'post_id,published,description' })).body;
      expect(video).toMatchObject({ post_id: expect.stringMatching(new RegExp(`^${page}_`)), published: false, description: 'Chunked trailer' });
      expectError(await phase({ upload_phase: 'transfer', upload_session_id: session, start_offset: '0' }, bytes.subarray(0, 1024)), 100);
    } finally {
      await t.control('PUT', '/__sim/settings', { video_chunk_bytes: 4 * 1024 * 1024 });
    }
  });
});

describe('dynamic creative (asset_feed_spec)', () => {
  it('checks the feed, and runs it only as the one ad of an is_dynamic_creative ad set', async () => {
    const form = new FormData();
    form.append('access_token', t.user.access_token);
    form.append('poster', new Blob([Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 3]), Buffer.alloc(20)])]), 'poster.png');
    const hash = ((await (await fetch(`${t.url}/v25.0/${account}/adimages`, { method: 'POST', body: form })).json()) as any).images['poster.png'].hash as string;
    const video = (await t.graph('POST', `/${account}/advideos`, { file_url: 'https://cdn.example/dyn.mp4' })).body.id as string;
    const feed = (over: Record<string, unknown> = {}) => ({
      videos: [{ video_id: video }],
      images: [{ hash }],
      bodies: [{ text: 'One' }, { text: 'Two' }],
      titles: [{ text: 'Episode 1' }],
      link_urls: [{ website_url: 'https://drama.example/1' }],
      call_to_action_types: ['WATCH_MORE'],
      ad_formats: ['AUTOMATIC_FORMAT'],
      ...over,
    });
    const creative = (f: Record<string, unknown>, story: Record<string, unknown> = { page_id: page }) => t.graph('POST', `/${account}/adcreatives`, { name: 'Dyn', object_story_spec: story, asset_feed_spec: f });
    // The video is still processing.
    expectError(await creative(feed()), 100, 1885252);
    await t.advance('2m');
    expect(blame(expectError(await creative(feed({ ad_formats: ['SINGLE_VIDEO'] })), 100))).toEqual([['asset_feed_spec', 'ad_formats']]);
    expect(expectError(await creative(feed({ ad_formats: ['SINGLE_VIDEO', 'SINGLE_IMAGE'] })), 100).message).toMatch(/ad_formats must name one of/);
    expectError(await creative(feed({ bodies: Array.from({ length: 6 }, (_, i) => ({ text: `b${i}` })) })), 100);
    expectError(await creative(feed({ images: [{ hash: 'f'.repeat(32) }] })), 100);
    expectError(await creative(feed({ link_urls: [] })), 100);
    expectError(await creative(feed(), { page_id: page, link_data: { link: 'https://drama.example/1' } }), 100);
    const ok = await creative(feed());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await t.graph('GET', `/${ok.body.id}`, { fields: 'asset_feed_spec,object_story_spec' })).body).toMatchObject({ asset_feed_spec: { ad_formats: ['AUTOMATIC_FORMAT'], bodies: [{ text: 'One' }, { text: 'Two' }] }, object_story_spec: { page_id: page } });

    const plain = await createTree(t, account, { name: 'Plain', status: 'PAUSED', ads: 0 });
    const onPlain = await t.graph('POST', `/${account}/ads`, { name: 'Dyn ad', adset_id: plain.adsetId, status: 'PAUSED', creative: { creative_id: ok.body.id } });
    expect(expectError(onPlain, 100).message).toMatch(/is_dynamic_creative=true/);

    const camp = await abo();
    const dyn = await adset(camp, { is_dynamic_creative: true });
    expect(dyn.status, JSON.stringify(dyn.body)).toBe(200);
    expect((await t.graph('GET', `/${dyn.body.id}`, { fields: 'is_dynamic_creative' })).body.is_dynamic_creative).toBe(true);
    expect(expectError(await t.graph('POST', `/${account}/ads`, { name: 'Plain ad', adset_id: dyn.body.id, status: 'PAUSED', creative: { creative_id: plain.creativeId } }), 100).message).toMatch(/takes only a creative with asset_feed_spec/);
    expect((await t.graph('POST', `/${account}/ads`, { name: 'Dyn ad', adset_id: dyn.body.id, status: 'PAUSED', creative: { creative_id: ok.body.id } })).status).toBe(200);
    expect(expectError(await t.graph('POST', `/${account}/ads`, { name: 'Dyn ad 2', adset_id: dyn.body.id, status: 'PAUSED', creative: { creative_id: ok.body.id } }), 100).message).toMatch(/only one ad/);
  });
});

describe('scheduled page posts', () => {
  let pageToken: string;
  beforeAll(async () => {
    const accounts = await t.graph('GET', '/me/accounts', { fields: 'id,access_token' });
    pageToken = accounts.body.data.find((p: any) => p.id === page).access_token;
  });
  const nowSec = async () => Math.floor(Date.parse((await t.control('GET', '/__sim/clock')).now) / 1000);

  it('need published=false and a time 10 minutes to 30 days ahead (100, blamed on scheduled_publish_time)', async () => {
    const now = await nowSec();
    const post = (extra: Record<string, unknown>) => t.graph('POST', `/${page}/feed`, { access_token: pageToken, message: 'Later', ...extra });
    const published = expectError(await post({ scheduled_publish_time: now + 3600 }), 100);
    expect(published.message).toBe('(#100) You cannot specify a scheduled publish time on a published post');
    const soon = expectError(await post({ published: false, scheduled_publish_time: now + 9 * 60 }), 100);
    expect(soon.message).toBe('(#100) The specified scheduled publish time is invalid.');
    expect(blame(soon)).toEqual([['scheduled_publish_time']]);
    expectError(await post({ published: false, scheduled_publish_time: now + 30 * 86_400 + 60 }), 100);
    expectError(await post({ published: false, scheduled_publish_time: now - 60 }), 100);
    expect((await post({ published: false, scheduled_publish_time: now + 10 * 60 })).status).toBe(200);
    expect((await post({ published: false, scheduled_publish_time: now + 30 * 86_400 })).status).toBe(200);
  });

  it('wait unpublished in /scheduled_posts and go live by themselves when the clock reaches their time', async () => {
    const at = (await nowSec()) + 3600;
    const photo = await t.graph('POST', `/${page}/photos`, { access_token: pageToken, url: 'https://cdn.example/s.jpg', message: 'Scheduled photo', published: false, scheduled_publish_time: new Date(at * 1000).toISOString() });
    expect(photo.status, JSON.stringify(photo.body)).toBe(200);
    const video = await t.graph('POST', `/${page}/videos`, { access_token: pageToken, file_url: 'https://cdn.example/s.mp4', description: 'Scheduled video', published: false, scheduled_publish_time: at });
    const videoPost = (await t.graph('GET', `/${video.body.id}`, { fields: 'post_id' })).body.post_id as string;
    const read = async (id: string) => (await t.graph('GET', `/${id}`, { fields: 'is_published,scheduled_publish_time,timeline_visibility' })).body;
    expect(await read(photo.body.post_id)).toEqual({ id: photo.body.post_id, is_published: false, scheduled_publish_time: at, timeline_visibility: 'hidden' });
    const ids = async (edge: string) => (await t.graph('GET', `/${page}/${edge}`, { fields: 'id', limit: 100 })).body.data.map((p: any) => p.id);
    expect(await ids('scheduled_posts')).toEqual(expect.arrayContaining([photo.body.post_id, videoPost]));
    expect(await ids('published_posts')).not.toContain(photo.body.post_id);

    await t.advance('59m');
    expect((await read(photo.body.post_id)).is_published).toBe(false);
    await t.advance('1m');
    expect(await read(photo.body.post_id)).toEqual({ id: photo.body.post_id, is_published: true, timeline_visibility: 'normal' });
    expect((await t.graph('GET', `/${video.body.id}`, { fields: 'published' })).body.published).toBe(true);
    expect(await ids('published_posts')).toEqual(expect.arrayContaining([photo.body.post_id, videoPost]));
    expect(await ids('scheduled_posts')).not.toContain(photo.body.post_id);
  });

  const schedule = async (at: number, message = 'Moved later') => {
    const res = await t.graph('POST', `/${page}/feed`, { access_token: pageToken, message, link: 'https://drama.example/m', published: false, scheduled_publish_time: at });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };
  const readSchedule = async (id: string) => (await t.graph('GET', `/${id}`, { fields: 'is_published,scheduled_publish_time' })).body;

  it('move to another time inside the same window with the page token (POST /<post>); outside it, or as the user, nothing changes', async () => {
    const now = await nowSec();
    const id = await schedule(now + 3600);
    const move = (extra: Record<string, unknown>) => t.graph('POST', `/${id}`, { access_token: pageToken, ...extra });
    for (const at of [now + 9 * 60, now + 30 * 86_400 + 60, now - 60]) {
      const error = expectError(await move({ scheduled_publish_time: at }), 100);
      expect(error.message).toBe('(#100) The specified scheduled publish time is invalid.');
      expect(blame(error)).toEqual([['scheduled_publish_time']]);
    }
    expectError(await t.graph('POST', `/${id}`, { scheduled_publish_time: now + 7200 }), 200);
    expectError(await move({ is_hidden: true }), 100);
    expect(await readSchedule(id)).toEqual({ id, is_published: false, scheduled_publish_time: now + 3600 });

    const later = await move({ scheduled_publish_time: new Date((now + 7200) * 1000).toISOString() });
    expect(later.body).toEqual({ success: true });
    expect(await readSchedule(id)).toEqual({ id, is_published: false, scheduled_publish_time: now + 7200 });
    // It goes live at the new time, not the old one.
    await t.advance('61m');
    expect((await readSchedule(id)).is_published).toBe(false);
    await t.advance('1h');
    expect((await readSchedule(id)).is_published).toBe(true);
  });

  it('take no new time once live (100, a schedule on a published post), nor a post published when made', async () => {
    const now = await nowSec();
    const id = await schedule(now + 15 * 60);
    await t.advance('15m');
    const error = expectError(await t.graph('POST', `/${id}`, { access_token: pageToken, scheduled_publish_time: now + 7200 }), 100);
    expect(error.message).toBe('(#100) You cannot specify a scheduled publish time on a published post');
    expect(await readSchedule(id)).toEqual({ id, is_published: true });
    const live = await t.graph('POST', `/${page}/feed`, { access_token: pageToken, message: 'Live now' });
    expectError(await t.graph('POST', `/${live.body.id}`, { access_token: pageToken, scheduled_publish_time: now + 7200 }), 100);
  });

  it('are deleted before their time (DELETE /<post>) and never go live; a second delete answers 100 / 33, object missing', async () => {
    const now = await nowSec();
    const id = await schedule(now + 3600, 'Deleted before its time');
    const video = await t.graph('POST', `/${page}/videos`, { access_token: pageToken, file_url: 'https://cdn.example/d.mp4', description: 'Deleted video', published: false, scheduled_publish_time: now + 3600 });
    const videoPost = (await t.graph('GET', `/${video.body.id}`, { fields: 'post_id' })).body.post_id as string;
    expectError(await t.graph('DELETE', `/${id}`), 200);

    for (const postId of [id, videoPost]) expect((await t.graph('DELETE', `/${postId}`, { access_token: pageToken })).body).toEqual({ success: true });
    const ids = async (edge: string) => (await t.graph('GET', `/${page}/${edge}`, { fields: 'id', limit: 100 })).body.data.map((p: any) => p.id);
    expect(await ids('scheduled_posts')).not.toContain(id);
    expect(await ids('promotable_posts')).not.toContain(id);
    expect(await ids('videos')).not.toContain(video.body.id);

    const again = expectError(await t.graph('DELETE', `/${id}`, { access_token: pageToken }), 100, 33);
    expect(again.message).toMatch(new RegExp(`^Unsupported delete request\\. Object with ID '${id}' does not exist`));
    expectError(await t.graph('POST', `/${id}`, { access_token: pageToken, scheduled_publish_time: now + 7200 }), 100, 33);
    expectError(await t.graph('GET', `/${id}`), 100, 33);
    await t.advance('61m');
    expect(await ids('published_posts')).not.toContain(id);
  });

  it('delete a post that is live like any other (Meta deletes published posts too)', async () => {
    const now = await nowSec();
    const id = await schedule(now + 15 * 60, 'Went live');
    await t.advance('15m');
    expect((await t.graph('DELETE', `/${id}`, { access_token: pageToken })).body).toEqual({ success: true });
    expectError(await t.graph('GET', `/${id}`), 100, 33);
  });
});

describe('apply-then-drop fault', () => {
  it('creates the object and loses the answer: the client sees a network error, a lookup finds it', async () => {
    await t.control('POST', '/__sim/faults', { path: '/act_*/campaigns', method: 'POST', apply_then_drop: true });
    await expect(t.graph('POST', `/${account}/campaigns`, { name: 'Lost answer', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false, status: 'PAUSED' })).rejects.toThrow();
    const found = await t.graph('GET', `/${account}/campaigns`, { fields: 'name', filtering: [{ field: 'name', operator: 'EQUAL', value: 'Lost answer' }] });
    expect(found.body.data).toHaveLength(1);
  });

  it('with timeout_ms hangs after applying until the client gives up; in a batch the item answers null', async () => {
    await t.control('POST', '/__sim/faults', { path: '/act_*/campaigns', method: 'POST', apply_then_drop: true, timeout_ms: 5000 });
    const body = new URLSearchParams({ access_token: t.token, name: 'Timed out', objective: 'OUTCOME_SALES', special_ad_categories: '[]', is_adset_budget_sharing_enabled: 'false', status: 'PAUSED' });
    await expect(fetch(`${t.url}/v25.0/${account}/campaigns`, { method: 'POST', body, signal: AbortSignal.timeout(300) })).rejects.toThrow();
    const lookup = (name: string) => t.graph('GET', `/${account}/campaigns`, { fields: 'name', filtering: [{ field: 'name', operator: 'EQUAL', value: name }] });
    expect((await lookup('Timed out')).body.data).toHaveLength(1);

    await t.control('POST', '/__sim/faults', { path: '/act_*/campaigns', method: 'POST', apply_then_drop: true });
    const res = await t.graph('POST', '/', {
      batch: [{ method: 'POST', relative_url: `${account}/campaigns`, body: 'name=Batch lost&objective=OUTCOME_SALES&special_ad_categories=[]&is_adset_budget_sharing_enabled=false&status=PAUSED' }],
    });
    expect(res.body).toEqual([null]);
    expect((await lookup('Batch lost')).body.data).toHaveLength(1);
  });
});
