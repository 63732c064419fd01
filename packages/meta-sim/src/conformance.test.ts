import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// Reference conformance: the names the simulator serves are the names
// shared/reference/meta-marketing-api.md lists. The lists below are copied from the reference;
// when the reference changes, change them here and the simulator until this passes.

/** §2 Ad account table. */
const AD_ACCOUNT_FIELDS = [
  'id', 'account_id', 'name', 'account_status', 'disable_reason', 'currency', 'timezone_name', 'timezone_id', 'timezone_offset_hours_utc',
  'amount_spent', 'spend_cap', 'balance', 'min_daily_budget', 'business', 'owner', 'created_time', 'funding_source_details',
  'is_prepay_account', 'user_tasks',
];
/** §3 Campaign table (writable and read-only rows). */
const CAMPAIGN_FIELDS = [
  'name', 'objective', 'status', 'special_ad_categories', 'special_ad_category_country', 'buying_type', 'daily_budget', 'lifetime_budget',
  'bid_strategy', 'is_adset_budget_sharing_enabled', 'spend_cap', 'start_time', 'stop_time', 'promoted_object', 'id', 'account_id',
  'effective_status', 'configured_status', 'budget_remaining', 'created_time', 'updated_time', 'issues_info', 'source_campaign_id',
];
/** §4 Ad set table. */
const ADSET_FIELDS = [
  'name', 'campaign_id', 'status', 'daily_budget', 'lifetime_budget', 'bid_amount', 'bid_strategy', 'bid_constraints', 'billing_event',
  'optimization_goal', 'destination_type', 'promoted_object', 'targeting', 'start_time', 'end_time', 'pacing_type', 'attribution_spec',
  'dsa_beneficiary', 'dsa_payor', 'effective_status', 'configured_status', 'budget_remaining', 'learning_stage_info', 'issues_info',
  'created_time', 'updated_time', 'account_id',
];
/** §5 Ad table. */
const AD_FIELDS = [
  'name', 'adset_id', 'creative', 'status', 'tracking_specs', 'conversion_domain', 'effective_status', 'configured_status', 'campaign_id',
  'account_id', 'ad_review_feedback', 'issues_info', 'preview_shareable_link', 'created_time', 'updated_time', 'source_ad_id',
];
/** §7 AdVideo fields. */
const VIDEO_FIELDS = ['id', 'title', 'description', 'length', 'picture', 'source', 'permalink_url', 'created_time', 'updated_time', 'format', 'status'];
/** §9 Pixel fields. */
const PIXEL_FIELDS = [
  'id', 'name', 'code', 'creation_time', 'last_fired_time', 'is_unavailable', 'owner_business', 'owner_ad_account', 'is_created_by_business',
  'data_use_setting', 'enable_automatic_matching', 'first_party_cookie_status',
];
/** §12 async report run fields. */
const REPORT_RUN_FIELDS = ['id', 'account_id', 'async_status', 'async_percent_completion', 'date_start', 'date_stop', 'time_ref', 'time_completed', 'is_running'];
/** §12 Insights row fields the product uses (video metrics and conversions are left out, see README). */
const INSIGHTS_ROW_FIELDS = [
  'account_id', 'account_name', 'account_currency', 'campaign_id', 'campaign_name', 'adset_id', 'adset_name', 'ad_id', 'ad_name',
  'date_start', 'date_stop', 'spend', 'impressions', 'reach', 'frequency', 'clicks', 'unique_clicks', 'inline_link_clicks',
  'inline_link_click_ctr', 'cost_per_inline_link_click', 'ctr', 'cpc', 'cpm', 'objective', 'optimization_goal', 'buying_type',
  'attribution_setting', 'actions', 'action_values', 'cost_per_action_type', 'purchase_roas', 'website_purchase_roas', 'outbound_clicks',
];
/** §15 error envelope keys (error_data and the user texts appear when there is something to say). */
const ERROR_KEYS = ['message', 'type', 'code', 'error_subcode', 'error_user_title', 'error_user_msg', 'error_data', 'is_transient', 'fbtrace_id'];
/** §16 usage headers. */
const USAGE_HEADERS = ['x-app-usage', 'x-ad-account-usage', 'x-business-use-case-usage', 'x-fb-ads-insights-throttle'];
/** §16 header members. */
const BUC_ENTRY_KEYS = ['type', 'call_count', 'total_cputime', 'total_time', 'estimated_time_to_regain_access', 'ads_api_access_tier'];
/** §1 effective_status values per object. */
const AD_EFFECTIVE = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'DISAPPROVED', 'PENDING_REVIEW', 'PREAPPROVED', 'PENDING_BILLING_INFO'];

let t: TestSim;
let account: string;
let tree: Awaited<ReturnType<typeof createTree>>;

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
  tree = await createTree(t, account);
  await t.advance('2d');
});
afterAll(() => t.close());

async function readAll(id: string, fields: string[]) {
  const res = await t.graph('GET', `/${id}`, { fields: fields.join(',') });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('reference conformance', () => {
  it('serves every ad account field of §2', async () => {
    const body = await readAll(account, AD_ACCOUNT_FIELDS);
    expect(Object.keys(body).sort()).toEqual([...AD_ACCOUNT_FIELDS].sort());
    expect(body.id).toMatch(/^act_\d+$/);
    expect(typeof body.amount_spent).toBe('string');
  });

  it('serves every campaign, ad set and ad field of §3–§5 (unset optional fields are omitted)', async () => {
    for (const [id, fields] of [
      [tree.campaignId, CAMPAIGN_FIELDS],
      [tree.adsetId, ADSET_FIELDS],
      [tree.adIds[0]!, AD_FIELDS],
    ] as const) {
      const body = await readAll(id, fields);
      for (const key of Object.keys(body)) expect([...fields, 'id']).toContain(key);
      for (const key of ['id', 'name', 'status', 'effective_status', 'configured_status', 'created_time', 'updated_time']) expect(body).toHaveProperty(key);
      expect(body.created_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$/);
    }
    const ad = await readAll(tree.adIds[0]!, ['effective_status']);
    expect(AD_EFFECTIVE).toContain(ad.effective_status);
  });

  it('serves the video, pixel and report run fields of §7, §9, §12', async () => {
    const video = await t.graph('POST', `/${account}/advideos`, { file_url: 'https://cdn.example/v.mp4' });
    await readAll(video.body.id, VIDEO_FIELDS);
    await readAll(t.user.pixels[0].id, PIXEL_FIELDS);
    const run = await t.graph('POST', `/${account}/insights`, { fields: 'spend' });
    await readAll(run.body.report_run_id, REPORT_RUN_FIELDS);
  });

  it('accepts every Insights row field of §12 and answers numbers as strings', async () => {
    const res = await t.graph('GET', `/${account}/insights`, { level: 'ad', fields: INSIGHTS_ROW_FIELDS.join(','), date_preset: 'last_7d' });
    expect(res.status).toBe(200);
    const row = res.body.data[0];
    for (const key of ['spend', 'impressions', 'clicks', 'reach', 'ctr', 'cpm']) expect(typeof row[key]).toBe('string');
    for (const key of Object.keys(row)) expect(INSIGHTS_ROW_FIELDS).toContain(key);
  });

  it('uses the error envelope keys of §15', async () => {
    const res = await t.graph('POST', `/${tree.adsetId}`, { promoted_object: { pixel_id: t.user.pixels[0].id, custom_event_type: 'LEAD' } });
    expect(Object.keys(res.body.error).sort()).toEqual([...ERROR_KEYS].sort());
    expect(typeof res.body.error.error_data).toBe('string');
  });

  it('sends the usage headers of §16 with their members', async () => {
    const res = await t.graph('GET', `/${account}/insights`, { fields: 'spend' });
    for (const h of USAGE_HEADERS) expect(res.headers.has(h), h).toBe(true);
    expect(Object.keys(JSON.parse(res.headers.get('x-app-usage')!)).sort()).toEqual(['call_count', 'total_cputime', 'total_time']);
    expect(Object.keys(JSON.parse(res.headers.get('x-ad-account-usage')!)).sort()).toEqual(['acc_id_util_pct', 'ads_api_access_tier', 'reset_time_duration']);
    const buc = Object.values(JSON.parse(res.headers.get('x-business-use-case-usage')!))[0] as any[];
    expect(Object.keys(buc[0]).sort()).toEqual([...BUC_ENTRY_KEYS].sort());
    expect(Object.keys(JSON.parse(res.headers.get('x-fb-ads-insights-throttle')!)).sort()).toEqual(['acc_id_util_pct', 'ads_api_access_tier', 'app_id_util_pct']);
  });
});
