import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

let t: TestSim;
let account: string;

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
});
afterAll(() => t.close());

describe('ad objects over HTTP', () => {
  it('creates a campaign and reads only the id without fields, the selection with them', async () => {
    const created = await t.graph('POST', `/${account}/campaigns`, { name: 'C1', objective: 'OUTCOME_SALES', status: 'PAUSED', special_ad_categories: [], daily_budget: 2000 });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^\d+$/) });

    const bare = await t.graph('GET', `/${created.body.id}`);
    expect(bare.body).toEqual({ id: created.body.id });

    const read = await t.graph('GET', `/${created.body.id}`, { fields: 'name,objective,status,effective_status,daily_budget,created_time' });
    expect(read.body).toMatchObject({ name: 'C1', objective: 'OUTCOME_SALES', status: 'PAUSED', effective_status: 'PAUSED', daily_budget: '2000', id: created.body.id });
    // Times carry a colon-less offset in the account's zone (America/Los_Angeles).
    expect(read.body.created_time).toBe('2026-04-30T17:00:00-0700');
  });

  it('updates, then deletes (still readable by id, gone from the edge)', async () => {
    const { body } = await t.graph('POST', `/${account}/campaigns`, { name: 'To delete', objective: 'OUTCOME_TRAFFIC', special_ad_categories: [], daily_budget: 1000 });
    expect((await t.graph('POST', `/${body.id}`, { name: 'Renamed', daily_budget: 1500 })).body).toEqual({ success: true });
    expect((await t.graph('GET', `/${body.id}`, { fields: 'name,daily_budget' })).body).toMatchObject({ name: 'Renamed', daily_budget: '1500' });
    expect((await t.graph('DELETE', `/${body.id}`)).body).toEqual({ success: true });
    expect((await t.graph('GET', `/${body.id}`, { fields: 'status' })).body.status).toBe('DELETED');
    const list = await t.graph('GET', `/${account}/campaigns`, { limit: 500 });
    expect(list.body.data.map((c: any) => c.id)).not.toContain(body.id);
    const deleted = await t.graph('GET', `/${account}/campaigns`, { effective_status: ['DELETED'] });
    expect(deleted.body.data.map((c: any) => c.id)).toContain(body.id);
    // DELETED is final.
    const revive = await t.graph('POST', `/${body.id}`, { status: 'ACTIVE' });
    expect(revive.status).toBe(400);
    expect(revive.body.error.code).toBe(100);
  });

  it('pages 120 campaigns with limit 50: three pages, no next on the last', async () => {
    const t2 = await startTestSim();
    const acct = t2.user.ad_accounts[1].id;
    for (let i = 0; i < 120; i++) {
      const r = await t2.graph('POST', `/${acct}/campaigns`, { name: `P${i}`, objective: 'OUTCOME_TRAFFIC', special_ad_categories: [], is_adset_budget_sharing_enabled: false, status: 'PAUSED' });
      expect(r.status).toBe(200);
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let after: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await t2.graph('GET', `/${acct}/campaigns`, { fields: 'name', limit: 50, after });
      sizes.push(res.body.data.length);
      seen.push(...res.body.data.map((c: any) => c.id));
      expect(res.body.paging.cursors.after).toBeTruthy();
      if (!res.body.paging.next) break;
      expect(res.body.paging.next).toContain('after=');
      after = res.body.paging.cursors.after;
    }
    expect(sizes).toEqual([50, 50, 20]);
    expect(new Set(seen).size).toBe(120);
    // Newest first.
    expect(Number(seen[0])).toBeGreaterThan(Number(seen[119]));
    await t2.close();
  });

  it('reads several ids at once, keyed by id', async () => {
    const a = await t.graph('POST', `/${account}/campaigns`, { name: 'M1', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    const b = await t.graph('POST', `/${account}/campaigns`, { name: 'M2', objective: 'OUTCOME_SALES', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    const res = await t.graph('GET', '/', { ids: `${a.body.id},${b.body.id}`, fields: 'name' });
    expect(res.body).toEqual({ [a.body.id]: { name: 'M1', id: a.body.id }, [b.body.id]: { name: 'M2', id: b.body.id } });
    const missing = await t.graph('GET', '/', { ids: `${a.body.id},999`, fields: 'name' });
    expect(missing.body.error.code).toBe(803);
  });

  it('filters edges by effective_status and filtering', async () => {
    const tree = await createTree(t, account, { name: 'Filterable', status: 'PAUSED' });
    const paused = await t.graph('GET', `/${account}/ads`, { effective_status: ['PAUSED'], fields: 'name,effective_status' });
    expect(paused.body.data.length).toBeGreaterThanOrEqual(2);
    expect(paused.body.data.every((a: any) => a.effective_status === 'PAUSED')).toBe(true);
    const byAdset = await t.graph('GET', `/${account}/ads`, { filtering: [{ field: 'adset.id', operator: 'IN', value: [tree.adsetId] }] });
    expect(byAdset.body.data.map((a: any) => a.id).sort()).toEqual([...tree.adIds].sort());
    const byName = await t.graph('GET', `/${account}/campaigns`, { filtering: [{ field: 'name', operator: 'CONTAIN', value: 'filterable' }] });
    expect(byName.body.data.map((c: any) => c.id)).toEqual([tree.campaignId]);
  });

  it('derives effective status from parents and review, and review ends with the clock', async () => {
    const tree = await createTree(t, account, { name: 'Review', status: 'ACTIVE' });
    const ad = () => t.graph('GET', `/${tree.adIds[0]}`, { fields: 'effective_status,configured_status' });
    expect((await ad()).body.effective_status).toBe('PENDING_REVIEW');
    await t.advance('11m');
    expect((await ad()).body.effective_status).toBe('ACTIVE');
    await t.graph('POST', `/${tree.campaignId}`, { status: 'PAUSED' });
    expect((await ad()).body.effective_status).toBe('CAMPAIGN_PAUSED');
    expect((await t.graph('GET', `/${tree.adsetId}`, { fields: 'effective_status' })).body.effective_status).toBe('CAMPAIGN_PAUSED');
    await t.graph('POST', `/${tree.campaignId}`, { status: 'ACTIVE' });
    await t.graph('POST', `/${tree.adsetId}`, { status: 'PAUSED' });
    expect((await ad()).body.effective_status).toBe('ADSET_PAUSED');
    await t.graph('POST', `/${tree.adsetId}`, { status: 'ACTIVE' });
    await t.control('POST', `/__sim/ads/${tree.adIds[0]}/disapprove`);
    expect((await ad()).body.effective_status).toBe('DISAPPROVED');
    await t.control('POST', `/__sim/ad-accounts/${account}/disable`);
    expect((await t.graph('GET', `/${account}`, { fields: 'account_status,disable_reason' })).body).toMatchObject({ account_status: 2, disable_reason: 1 });
    expect((await t.graph('GET', `/${tree.adIds[1]}`, { fields: 'effective_status' })).body.effective_status).toBe('WITH_ISSUES');
    await t.control('POST', `/__sim/ad-accounts/${account}/enable`);
  });

  it('expands edges and references as fields', async () => {
    const tree = await createTree(t, account, { name: 'Expand', status: 'PAUSED' });
    const res = await t.graph('GET', `/${tree.campaignId}`, { fields: 'name,adsets.limit(1){name,ads{name}}' });
    expect(res.body.adsets.data).toHaveLength(1);
    expect(res.body.adsets.data[0].ads.data).toHaveLength(2);
    const unknown = await t.graph('GET', `/${tree.campaignId}`, { fields: 'name,nonsense' });
    expect(unknown.body.error.message).toBe('(#100) Tried accessing nonexisting field (nonsense) on node type (Campaign)');
  });

  it('copies a campaign deeply with rename and status options', async () => {
    // Three objects in all: the most a synchronous copy may create (copies.test.ts has the rest).
    const tree = await createTree(t, account, { name: 'Source', status: 'ACTIVE', ads: 1 });
    const res = await t.graph('POST', `/${tree.campaignId}/copies`, {
      deep_copy: true,
      status_option: 'PAUSED',
      rename_options: { rename_strategy: 'DEEP_RENAME', rename_suffix: ' v2' },
    });
    expect(res.status).toBe(200);
    expect(res.body.ad_object_ids.map((o: any) => o.ad_object_type)).toEqual(['campaign', 'ad_set', 'ad']);
    const copy = await t.graph('GET', `/${res.body.copied_campaign_id}`, { fields: 'name,status,source_campaign_id,adsets{name,status,ads{name}}' });
    expect(copy.body).toMatchObject({ name: 'Source v2', status: 'PAUSED', source_campaign_id: tree.campaignId });
    expect(copy.body.adsets.data[0].name).toBe('Adset 1 v2');
    expect(copy.body.adsets.data[0].ads.data.map((a: any) => a.name)).toEqual(['Ad 1 v2']);

    // A shallow ad set copy keeps its pixel event: a new event means a new ad set (reference §4).
    const adsetCopy = await t.graph('POST', `/${tree.adsetId}/copies`, {});
    expect(adsetCopy.status).toBe(200);
    const read = await t.graph('GET', `/${adsetCopy.body.copied_adset_id}`, { fields: 'name,promoted_object,daily_budget,status' });
    expect(read.body).toMatchObject({ name: 'Adset 1 - Copy', daily_budget: '5000', status: 'PAUSED', promoted_object: { custom_event_type: 'PURCHASE' } });
  });
});

describe('batch', () => {
  it('answers each item with code, headers and a JSON body, in order', async () => {
    const res = await t.graph('POST', '/', {
      batch: [
        { method: 'POST', relative_url: `${account}/campaigns`, body: 'name=Batch1&objective=OUTCOME_SALES&special_ad_categories=[]&is_adset_budget_sharing_enabled=false&status=PAUSED', name: 'create' },
        { method: 'GET', relative_url: '{result=create:$.id}?fields=name,status' },
        { method: 'POST', relative_url: `${account}/campaigns`, body: 'name=NoObjective&special_ad_categories=[]' },
        { method: 'GET', relative_url: '999999?fields=name' },
        { method: 'GET', relative_url: 'me?fields=id,name' },
      ],
    });
    expect(res.status).toBe(200);
    const items = res.body;
    expect(items).toHaveLength(5);
    // A named result referenced later is omitted by default.
    expect(items[0]).toBeNull();
    expect(items[1].code).toBe(200);
    expect(JSON.parse(items[1].body)).toMatchObject({ name: 'Batch1', status: 'PAUSED' });
    expect(items[1].headers).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'x-app-usage' })]));
    expect(items[2].code).toBe(400);
    expect(JSON.parse(items[2].body).error).toMatchObject({ code: 100, message: '(#100) The parameter objective is required' });
    expect(JSON.parse(items[3].body).error).toMatchObject({ code: 100, error_subcode: 33 });
    expect(JSON.parse(items[4].body).id).toBe(t.user.user.id);
  });

  it('refuses more than 50 items', async () => {
    const res = await t.graph('POST', '/', { batch: Array.from({ length: 51 }, () => ({ method: 'GET', relative_url: 'me' })) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(100);
  });

  it('answers null for an item hit by an injected timeout', async () => {
    await t.control('POST', '/__sim/faults', { path: '/me', method: 'GET', timeout_ms: 1000 });
    const res = await t.graph('POST', '/', { batch: [{ method: 'GET', relative_url: 'me' }, { method: 'GET', relative_url: 'me' }] });
    expect(res.body[0]).toBeNull();
    expect(res.body[1].code).toBe(200);
  });
});
