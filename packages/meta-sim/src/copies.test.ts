import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// Copies as on Meta: each copies edge takes its own parameters (campaign: parameter_overrides;
// ad: creative_parameters; ad set: neither), a synchronous copy creates at most 3 objects in all,
// and bigger trees are copied through an asynchronous batch request.

let t: TestSim;
let account: string;

beforeAll(async () => {
  t = await startTestSim({ settings: { review_delay_seconds: 60 } });
  account = t.user.ad_accounts[0].id;
});
afterAll(() => t.close());

/** Live objects of the account (edges leave out deleted and archived ones). */
const count = async (edge: string) => (await t.graph('GET', `/${account}/${edge}`, { limit: 500 })).body.data.length;
const counts = async () => ({ campaigns: await count('campaigns'), adsets: await count('adsets'), ads: await count('ads') });

describe('synchronous copies', () => {
  it('refuses a copy of more than 3 objects in all with 100 / 1885194, creating nothing', async () => {
    const tree = await createTree(t, account, { name: 'Four objects', ads: 2 });
    const before = await counts();
    const res = await t.graph('POST', `/${tree.campaignId}/copies`, { deep_copy: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 100, error_subcode: 1885194, error_user_title: 'Copy Request Too Large' });
    expect(res.body.error.error_user_msg).toContain('asyncbatch');
    expect(await counts()).toEqual(before);

    // The ad set with its two ads is three objects: allowed.
    const adset = await t.graph('POST', `/${tree.adsetId}/copies`, { deep_copy: true });
    expect(adset.status).toBe(200);
    expect(adset.body.ad_object_ids.map((o: any) => o.ad_object_type)).toEqual(['ad_set', 'ad', 'ad']);
    // A shallow campaign copy is one object.
    expect((await t.graph('POST', `/${tree.campaignId}/copies`, {})).status).toBe(200);
  });

  it('counts only live children', async () => {
    const tree = await createTree(t, account, { name: 'One ad deleted', ads: 2 });
    await t.graph('DELETE', `/${tree.adIds[0]}`);
    const res = await t.graph('POST', `/${tree.campaignId}/copies`, { deep_copy: true });
    expect(res.status).toBe(200);
    expect(res.body.ad_object_ids).toHaveLength(3);
  });

  it('overrides campaign fields on a campaign copy, and nothing else', async () => {
    const tree = await createTree(t, account, { name: 'CBO source', campaignBudget: 7000, ads: 1 });
    const res = await t.graph('POST', `/${tree.campaignId}/copies`, { parameter_overrides: { name: 'CBO copy', daily_budget: 12000, bid_strategy: 'LOWEST_COST_WITHOUT_CAP' } });
    expect(res.status).toBe(200);
    const copy = await t.graph('GET', `/${res.body.copied_campaign_id}`, { fields: 'name,daily_budget,bid_strategy,status' });
    expect(copy.body).toMatchObject({ name: 'CBO copy', daily_budget: '12000', bid_strategy: 'LOWEST_COST_WITHOUT_CAP', status: 'PAUSED' });

    const adsetField = await t.graph('POST', `/${tree.campaignId}/copies`, { parameter_overrides: { promoted_object: { pixel_id: t.user.pixels[0].id, custom_event_type: 'LEAD' } } });
    expect(adsetField.body.error).toMatchObject({ code: 100 });
    expect(JSON.parse(adsetField.body.error.error_data).blame_field_specs).toEqual([['parameter_overrides', 'promoted_object']]);
    const lifetime = await t.graph('POST', `/${tree.campaignId}/copies`, { parameter_overrides: { lifetime_budget: 100000 } });
    expect(lifetime.body.error.message).toContain('stop_time');
  });

  it('refuses parameter_overrides on ad set copies and deep_copy on ad copies', async () => {
    const tree = await createTree(t, account, { name: 'Params', ads: 1 });
    const before = await counts();
    const adset = await t.graph('POST', `/${tree.adsetId}/copies`, { parameter_overrides: { daily_budget: 9000 } });
    expect(adset.status).toBe(400);
    expect(adset.body.error).toMatchObject({ code: 100, message: '(#100) Param parameter_overrides is not supported by ad set copies' });
    expect(JSON.parse(adset.body.error.error_data).blame_field_specs).toEqual([['parameter_overrides']]);
    const ad = await t.graph('POST', `/${tree.adIds[0]}/copies`, { deep_copy: true });
    expect(ad.body.error).toMatchObject({ code: 100, message: '(#100) Param deep_copy is not supported by ad copies' });
    const adCreative = await t.graph('POST', `/${tree.adsetId}/copies`, { creative_parameters: { name: 'x' } });
    expect(adCreative.body.error.message).toContain('creative_parameters');
    expect(await counts()).toEqual(before);
  });

  it('gives an ad copy a new creative from creative_parameters, and a fresh review', async () => {
    const tree = await createTree(t, account, { name: 'Creative swap', ads: 1 });
    await t.advance('2m');
    const res = await t.graph('POST', `/${tree.adIds[0]}/copies`, {
      status_option: 'ACTIVE',
      creative_parameters: {
        name: 'Episode 2 creative',
        object_story_spec: { page_id: t.user.pages[0].id, link_data: { link: 'https://drama.example/ep2', message: 'Episode 2' } },
        url_tags: 'a={{ad.id}}',
      },
    });
    expect(res.status).toBe(200);
    const copy = await t.graph('GET', `/${res.body.copied_ad_id}`, { fields: 'creative{id,name,link_url,url_tags},effective_status,source_ad_id' });
    expect(copy.body).toMatchObject({ effective_status: 'PENDING_REVIEW', source_ad_id: tree.adIds[0], creative: { name: 'Episode 2 creative', link_url: 'https://drama.example/ep2', url_tags: 'a={{ad.id}}' } });
    expect(copy.body.creative.id).not.toBe(tree.creativeId);
    // An existing creative of the account can be named instead; another account's cannot.
    const reuse = await t.graph('POST', `/${tree.adIds[0]}/copies`, { creative_parameters: { creative_id: copy.body.creative.id } });
    expect((await t.graph('GET', `/${reuse.body.copied_ad_id}`, { fields: 'creative' })).body.creative.id).toBe(copy.body.creative.id);
    const bad = await t.graph('POST', `/${tree.adIds[0]}/copies`, { creative_parameters: { creative_id: '1' } });
    expect(bad.body.error).toMatchObject({ code: 100 });
  });
});

describe('asynchronous batch copies', () => {
  it('copies trees of any size through asyncbatch, with sessions that finish by the clock', async () => {
    const big = await createTree(t, account, { name: 'Big', ads: 4 });
    const small = await createTree(t, account, { name: 'Small', ads: 1 });
    const before = await counts();
    const res = await t.graph('POST', '/', {
      asyncbatch: [
        { method: 'POST', relative_url: `${big.campaignId}/copies`, name: 'copy_big', body: 'deep_copy=true&status_option=PAUSED' },
        { method: 'POST', relative_url: `${big.adsetId}/copies`, name: 'copy_adset', body: `deep_copy=true&campaign_id=${small.campaignId}` },
        { method: 'POST', relative_url: `${small.adsetId}/copies`, name: 'bad_override', body: 'parameter_overrides={"daily_budget":9000}' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.async_sessions.map((s: any) => s.name)).toEqual(['copy_big', 'copy_adset', 'bad_override']);
    const [big1, adset1, bad] = res.body.async_sessions.map((s: any) => s.id as string);
    const session = async (id: string) => (await t.graph('GET', `/${id}`, { fields: 'id,name,status,result,error_code,exception' })).body;

    expect(await session(big1!)).toEqual({ id: big1, name: 'copy_big', status: 'NOT_STARTED' });
    await t.advance('5s');
    expect((await session(big1!)).status).toBe('IN_PROGRESS');
    await t.advance('6s');
    const done = await session(big1!);
    expect(done.status).toBe('COMPLETED');
    const result = JSON.parse(done.result);
    expect(result.ad_object_ids.map((o: any) => o.ad_object_type)).toEqual(['campaign', 'ad_set', 'ad', 'ad', 'ad', 'ad']);
    expect((await t.graph('GET', `/${result.copied_campaign_id}`, { fields: 'source_campaign_id' })).body.source_campaign_id).toBe(big.campaignId);

    const moved = JSON.parse((await session(adset1!)).result);
    expect(moved.ad_object_ids).toHaveLength(5);
    expect((await t.graph('GET', `/${moved.copied_adset_id}`, { fields: 'campaign_id' })).body.campaign_id).toBe(small.campaignId);

    const failed = await session(bad!);
    expect(failed).toMatchObject({ status: 'FAILED', error_code: 100, exception: '(#100) Param parameter_overrides is not supported by ad set copies' });
    expect(JSON.parse(failed.result).error.code).toBe(100);

    const after = await counts();
    expect(after).toEqual({ campaigns: before.campaigns + 1, adsets: before.adsets + 2, ads: before.ads + 8 });
  });

  it('validates the request and keeps sessions to their user', async () => {
    const unnamed = await t.graph('POST', '/', { asyncbatch: [{ method: 'POST', relative_url: 'me/copies' }] });
    expect(unnamed.body.error).toMatchObject({ code: 100 });
    const get = await t.graph('POST', '/', { asyncbatch: [{ method: 'GET', relative_url: 'me', name: 'read' }] });
    expect(get.body.error.message).toContain('POST');
    const dependent = await t.graph('POST', '/', { asyncbatch: [{ method: 'POST', relative_url: 'x/copies', name: 'a', depends_on: 'b' }] });
    expect(dependent.body.error.message).toContain('dependencies');

    const tree = await createTree(t, account, { name: 'Private', ads: 1 });
    const res = await t.graph('POST', '/', { asyncbatch: [{ method: 'POST', relative_url: `${tree.adIds[0]}/copies`, name: 'mine' }] });
    const other = await t.control('POST', '/__sim/users', { ad_accounts: 1 });
    const peek = await t.graph('GET', `/${res.body.async_sessions[0].id}`, { access_token: other.access_token });
    expect(peek.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});
