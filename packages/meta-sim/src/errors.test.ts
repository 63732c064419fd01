import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from './testing/harness.ts';

// Every error class the client must handle, with the reference's envelope (§15).

let t: TestSim;
let account: string;

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
});
afterAll(() => t.close());

function expectEnvelope(body: any, code: number, subcode?: number) {
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toMatchObject({ type: 'OAuthException', code, is_transient: expect.any(Boolean), fbtrace_id: expect.any(String) });
  expect(typeof body.error.message).toBe('string');
  if (subcode !== undefined) expect(body.error.error_subcode).toBe(subcode);
}

const adsetBody = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  name: 'S',
  campaign_id: campaignId,
  billing_event: 'IMPRESSIONS',
  optimization_goal: 'LINK_CLICKS',
  targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 1 } },
  ...extra,
});

describe('validation errors', () => {
  it('a missing required field is code 100 with a blamed field', async () => {
    const res = await t.graph('POST', `/${account}/campaigns`, { objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 100);
    expect(res.body.error.message).toBe('(#100) The parameter name is required');
    expect(JSON.parse(res.body.error.error_data)).toEqual({ blame_field_specs: [['name']] });
  });

  it('special_ad_categories is required on campaign create', async () => {
    const res = await t.graph('POST', `/${account}/campaigns`, { name: 'x', objective: 'OUTCOME_SALES' });
    expectEnvelope(res.body, 100);
    expect(res.body.error.message).toContain('special_ad_categories');
  });

  it('an unknown object or path is 100/33, a dead version 2635, an unknown field 100', async () => {
    expectEnvelope((await t.graph('GET', '/987654321')).body, 100, 33);
    const dead = await fetch(`${t.url}/v20.0/me?access_token=${t.token}`);
    expect(dead.status).toBe(400);
    expectEnvelope(await dead.json(), 2635);
    const v24 = await fetch(`${t.url}/v24.0/me?access_token=${t.token}`);
    expect(v24.status).toBe(200);
    expectEnvelope((await t.graph('GET', `/${account}`, { fields: 'name,bogus' })).body, 100);
  });

  it('a goal outside the objective is 100/2490408 blaming optimization_goal', async () => {
    const c = await t.graph('POST', `/${account}/campaigns`, { name: 'Sales', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    const res = await t.graph('POST', `/${account}/adsets`, adsetBody(c.body.id, { optimization_goal: 'LANDING_PAGE_VIEWS', daily_budget: 2000 }));
    expectEnvelope(res.body, 100, 2490408);
    expect(JSON.parse(res.body.error.error_data).blame_field_specs).toEqual([['optimization_goal']]);
  });

  it('a budget on both campaign and ad set is 100/1885621', async () => {
    const c = await t.graph('POST', `/${account}/campaigns`, { name: 'CBO', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [], daily_budget: 5000 });
    const res = await t.graph('POST', `/${account}/adsets`, adsetBody(c.body.id, { daily_budget: 2000 }));
    expectEnvelope(res.body, 100, 1885621);
  });

  it('the Advantage audience flag is required', async () => {
    const c = await t.graph('POST', `/${account}/campaigns`, { name: 'T', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    const res = await t.graph('POST', `/${account}/adsets`, adsetBody(c.body.id, { daily_budget: 2000, targeting: { geo_locations: { countries: ['US'] } } }));
    expectEnvelope(res.body, 100);
    expect(res.body.error.error_user_title).toBe('Advantage Audience Flag Required');
  });

  it("a published ad set's pixel event cannot change: 100/3260011", async () => {
    const c = await t.graph('POST', `/${account}/campaigns`, { name: 'Conv', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    const pixel = t.user.pixels[0].id;
    const noPixel = await t.graph('POST', `/${account}/adsets`, adsetBody(c.body.id, { daily_budget: 2000, optimization_goal: 'OFFSITE_CONVERSIONS' }));
    expectEnvelope(noPixel.body, 100);
    const s = await t.graph(
      'POST',
      `/${account}/adsets`,
      adsetBody(c.body.id, { daily_budget: 2000, optimization_goal: 'OFFSITE_CONVERSIONS', promoted_object: { pixel_id: pixel, custom_event_type: 'PURCHASE' } }),
    );
    expect(s.status).toBe(200);
    const res = await t.graph('POST', `/${s.body.id}`, { promoted_object: { pixel_id: pixel, custom_event_type: 'ADD_TO_CART' } });
    expectEnvelope(res.body, 100, 3260011);
  });

  it('ad set budget changes beyond 4 an hour are 613/1487632, allowed again an hour later', async () => {
    const c = await t.graph('POST', `/${account}/campaigns`, { name: 'B', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    const s = await t.graph('POST', `/${account}/adsets`, adsetBody(c.body.id, { daily_budget: 2000 }));
    for (let i = 1; i <= 4; i++) expect((await t.graph('POST', `/${s.body.id}`, { daily_budget: 2000 + i * 100 })).status).toBe(200);
    const fifth = await t.graph('POST', `/${s.body.id}`, { daily_budget: 9000 });
    expectEnvelope(fifth.body, 613, 1487632);
    expect((await t.graph('GET', `/${s.body.id}`, { fields: 'daily_budget' })).body.daily_budget).toBe('2400');
    await t.advance('61m');
    expect((await t.graph('POST', `/${s.body.id}`, { daily_budget: 9000 })).status).toBe(200);
  });
});

describe('tokens', () => {
  it('no token is 104; a garbage token 190', async () => {
    const none = await fetch(`${t.url}/v25.0/me`);
    expectEnvelope(await none.json(), 104);
    expectEnvelope((await t.graph('GET', '/me', { access_token: 'EAAnonsense' })).body, 190);
  });

  it('accepts Authorization: Bearer', async () => {
    const res = await fetch(`${t.url}/v25.0/me`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(((await res.json()) as any).id).toBe(t.user.user.id);
  });

  it('a token expires by the clock: 190/463', async () => {
    const { access_token } = await t.control('POST', '/__sim/tokens', { user_id: t.user.user.id, scopes: ['ads_read'], expires_in: 3600 });
    expect((await t.graph('GET', '/me', { access_token })).status).toBe(200);
    await t.advance('61m');
    const res = await t.graph('GET', '/me', { access_token });
    expectEnvelope(res.body, 190, 463);
    expect(res.body.error.message).toContain('Session has expired');
  });

  it('revocation answers 190 with 460 / 467', async () => {
    const a = await t.control('POST', '/__sim/tokens', { user_id: t.user.user.id, scopes: ['ads_read'] });
    await t.control('POST', '/__sim/tokens/revoke', { token: a.access_token, reason: 'password_changed' });
    expectEnvelope((await t.graph('GET', '/me', { access_token: a.access_token })).body, 190, 460);
    const b = await t.control('POST', '/__sim/tokens', { user_id: t.user.user.id, scopes: ['ads_read'] });
    await t.control('POST', '/__sim/tokens/revoke', { token: b.access_token });
    expectEnvelope((await t.graph('GET', '/me', { access_token: b.access_token })).body, 190, 467);
  });

  it('a missing scope is a 200-range permission error (HTTP 403)', async () => {
    const { access_token } = await t.control('POST', '/__sim/tokens', { user_id: t.user.user.id, scopes: ['ads_read'] });
    expect((await t.graph('GET', `/${account}/campaigns`, { access_token })).status).toBe(200);
    const res = await t.graph('POST', `/${account}/campaigns`, { access_token, name: 'x', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    expect(res.status).toBe(403);
    expectEnvelope(res.body, 200);
  });
});

describe('rate limits', () => {
  it('sends the four usage headers from real counters', async () => {
    const res = await t.graph('GET', `/${account}/insights`, { fields: 'spend' });
    for (const h of ['x-app-usage', 'x-ad-account-usage', 'x-business-use-case-usage', 'x-fb-ads-insights-throttle']) expect(res.headers.get(h)).toBeTruthy();
    const buc = JSON.parse(res.headers.get('x-business-use-case-usage')!);
    expect(buc[account.slice(4)][0]).toMatchObject({ type: 'ads_insights', estimated_time_to_regain_access: 0 });
  });

  it('refuses past the account score with 17/2446079 and recovers after the block', async () => {
    const t2 = await startTestSim();
    const acct = t2.user.ad_accounts[0].id;
    await t2.control('PUT', '/__sim/rate-limits', { account_score_max: 10, account_score_decay_seconds: 300, account_block_seconds: 60 });
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await t2.graph('GET', `/${acct}`, { fields: 'name' })).status);
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    const refused = await t2.graph('GET', `/${acct}`, { fields: 'name' });
    expectEnvelope(refused.body, 17, 2446079);
    expect(refused.body.error.is_transient).toBe(true);
    expect(JSON.parse(refused.headers.get('x-ad-account-usage')!).acc_id_util_pct).toBe(100);
    // Other accounts are unaffected.
    expect((await t2.graph('GET', `/${t2.user.ad_accounts[1].id}`)).status).toBe(200);
    await t2.advance('301s');
    expect((await t2.graph('GET', `/${acct}`, { fields: 'name' })).status).toBe(200);
    await t2.close();
  });

  it('refuses past the ads_management and ads_insights quotas with 80004 / 80000 and says when to come back', async () => {
    const t2 = await startTestSim();
    const acct = t2.user.ad_accounts[0].id;
    await t2.control('PUT', '/__sim/rate-limits', { ads_management_per_hour: 5, ads_insights_per_hour: 3 });
    for (let i = 0; i < 5; i++) expect((await t2.graph('GET', `/${acct}/campaigns`)).status).toBe(200);
    const mgmt = await t2.graph('GET', `/${acct}/campaigns`);
    expectEnvelope(mgmt.body, 80004, 2446079);
    const entry = JSON.parse(mgmt.headers.get('x-business-use-case-usage')!)[acct.slice(4)][0];
    expect(entry.type).toBe('ads_management');
    expect(entry.call_count).toBe(100);
    expect(entry.estimated_time_to_regain_access).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect((await t2.graph('GET', `/${acct}/insights`)).status).toBe(200);
    expectEnvelope((await t2.graph('GET', `/${acct}/insights`)).body, 80000, 2446079);
    await t2.advance(`${entry.estimated_time_to_regain_access}m`);
    expect((await t2.graph('GET', `/${acct}/campaigns`)).status).toBe(200);
    await t2.close();
  });

  it('refuses past the app budget with code 4', async () => {
    const t2 = await startTestSim();
    await t2.control('PUT', '/__sim/rate-limits', { app_calls_per_hour: 3 });
    for (let i = 0; i < 3; i++) expect((await t2.graph('GET', '/me')).status).toBe(200);
    const res = await t2.graph('GET', '/me');
    expectEnvelope(res.body, 4);
    expect(JSON.parse(res.headers.get('x-app-usage')!).call_count).toBe(100);
    await t2.advance('61m');
    expect((await t2.graph('GET', '/me')).status).toBe(200);
    await t2.close();
  });
});

describe('fault injection', () => {
  it('makes the next N matching calls fail with a given code and HTTP status', async () => {
    await t.control('POST', '/__sim/faults', { path: '/act_*/campaigns', method: 'GET', count: 2, error: { code: 2, http_status: 503 } });
    const a = await t.graph('GET', `/${account}/campaigns`);
    const b = await t.graph('GET', `/${account}/campaigns`);
    expect([a.status, b.status]).toEqual([503, 503]);
    expectEnvelope(a.body, 2);
    expect(a.body.error.is_transient).toBe(true);
    expect((await t.graph('GET', `/${account}/campaigns`)).status).toBe(200);
  });

  it('drops the connection', async () => {
    await t.control('POST', '/__sim/faults', { path: '/me', drop: true });
    await expect(t.graph('GET', '/me')).rejects.toThrow();
    expect((await t.graph('GET', '/me')).status).toBe(200);
  });

  it('adds latency', async () => {
    await t.control('POST', '/__sim/faults', { path: '/me', latency_ms: 250 });
    const started = performance.now();
    expect((await t.graph('GET', '/me')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('hangs until the client gives up', async () => {
    await t.control('POST', '/__sim/faults', { path: '/me', timeout_ms: 60_000 });
    const res = fetch(`${t.url}/v25.0/me?access_token=${t.token}`, { signal: AbortSignal.timeout(200) });
    await expect(res).rejects.toThrow();
    expect((await t.graph('GET', '/me')).status).toBe(200);
  });
});
