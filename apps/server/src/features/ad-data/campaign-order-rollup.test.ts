import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { addStats, mirrorAd, type Mirror } from '../../test/delivery.ts';
import { createAdAccount, createDrama, createProduct, createScopeOrg, createSite } from '../../test/factories.ts';
import { refreshRollupsJob } from './dim-rollups.job.ts';

// campaign_order_daily (migration 0023): the order facts per campaign and report day that the
// optimizer, account and campaign views read. After every kind of change to its inputs — a cohort
// refresh writing ad_order_daily, an ad mirrored after its orders, an ad moved to another owner,
// account or campaign, drama and product stamping, a campaign's platform, deletions — the rollup
// equals the ad-level computation (ad_order_daily ⋈ ads ⋈ ad_campaigns) row for row, and the views
// show it on the first read without waiting for the refresh job. The app clock is 2026-11-01 16:00
// in Asia/Shanghai: every October day below has matured up to D30 except the last ones.

const DAYS = ['2026-10-01', '2026-10-15', '2026-10-30'] as const;
const FROM = DAYS[0];
const TO = '2026-11-01';
const FACTS = ['revenue_usd_cents', 'payers', 'new_payers', 'cohort_d0_usd_cents', 'cohort_d1_usd_cents', 'cohort_d3_usd_cents', 'cohort_d7_usd_cents', 'cohort_d14_usd_cents', 'cohort_d30_usd_cents'];
const GRAIN = ['campaign_id', 'day', 'ad_account_id', 'owner_user_id', 'platform', 'drama_id', 'product_id'];

let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};
const acc = { a: 0, b: 0 };
const drama = { d1: 0, d2: 0 };
let productId = 0;
let m1: Mirror;
let m2: Mirror;
let m3: Mirror;
let m4: Mirror;

/** One ad_order_daily row as refreshCohorts writes it (revenue r cents, cohorts growing from it). */
const cohortRow = (ad: string, day: string, r: number) => ({
  ad_platform_id: ad,
  day,
  revenue_usd_cents: r,
  payers: 2,
  new_payers: 1,
  cohort_d0_usd_cents: r,
  cohort_d1_usd_cents: r + 1,
  cohort_d3_usd_cents: r + 3,
  cohort_d7_usd_cents: r + 7,
  cohort_d14_usd_cents: r + 14,
  cohort_d30_usd_cents: r + 30,
});

type Row = Record<string, string | number | null>;
const norm = (rows: Row[]) =>
  rows
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : k === 'day' ? String(v).slice(0, 10) : typeof v === 'string' && k !== 'platform' ? Number(v) : v])))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The rollup and the ad-level computation, grouped by the rollup's grain. */
async function bothSides() {
  const grain = sql.join(GRAIN.map((c) => sql.ref(c)));
  const sums = sql.join(FACTS.map((c) => sql`sum(${sql.ref(c)})::bigint as ${sql.ref(c)}`));
  const rollup = await sql<Row>`select ${grain}, ${sums} from campaign_order_daily group by ${grain}`.execute(t.db);
  const adLevel = await sql<Row>`select ${grain}, ${sums} from (
      select a.campaign_id, d.day, a.ad_account_id, a.owner_user_id, c.platform, a.drama_id, a.product_id, ${sql.join(FACTS.map((c) => sql.ref(`d.${c}`)))}
      from ad_order_daily d join ads a on a.platform_id = d.ad_platform_id join ad_campaigns c on c.id = a.campaign_id) x
    group by ${grain}`.execute(t.db);
  return { rollup: norm(rollup.rows), adLevel: norm(adLevel.rows) };
}

const list = async (who: string, body: Record<string, unknown>) => {
  const res = await t.call('/api/ad-reports/list', { page_size: 100, status: 'all', date_from: FROM, date_to: TO, ...body }, { token: tokens[who], lang: 'en' });
  expect(res.code, res.message).toBe(0);
  return res.data as { list: { id: number; metrics: Record<string, number | null> }[]; totals: Record<string, number | null> };
};

/** Metrics of the order facts alone (the views' insights come from campaign_stats_daily, whose owner, drama and platform are the campaign's). */
const ORDER_METRICS = ['revenue', 'payers', 'new_payers'] as const;
/** Cohort metrics (over the same spend when nothing filters the spend away). */
const COHORT_METRICS = ['d0_roi', 'd1_roi', 'd3_roi', 'd7_roi', 'd14_roi', 'd30_roi', 'd1_d0', 'd7_d0', 'roi'] as const;

/**
 * Reads the campaign view first (it must bring the logged changes in by itself), then checks the
 * rollup against the ad-level rows, and the rollup views against the ad view (which reads the
 * ad-level join) for each person and filter.
 */
async function expectConsistent() {
  const campaign = await list('manager', { level: 'campaign' });
  const { rollup, adLevel } = await bothSides();
  expect(rollup).toEqual(adLevel);
  expect(rollup.length).toBeGreaterThan(0);
  // The views against the ad view (the ad-level join). Scoped people see a campaign's row only
  // when the campaign itself is theirs, while their account view holds every fact of their ads:
  // the campaign view is compared for the manager, the account view for everyone.
  for (const who of ['manager', 'leader', 's1', 's4']) {
    for (const filter of [{}, { drama_id: drama.d1 }, { platform: 'ec' }]) {
      const ad = await list(who, { level: 'ad', ...filter });
      // ad_accounts carry a platform of their own that the account view filters on too: platform filters are compared at the campaign level.
      const levels = [...(who === 'manager' ? (['campaign'] as const) : []), ...('platform' in filter ? [] : (['account'] as const))];
      for (const level of levels) {
        const r = who === 'manager' && level === 'campaign' && !Object.keys(filter).length ? campaign : await list(who, { level, ...filter });
        for (const k of ORDER_METRICS) expect(r.totals[k], `${who} ${level} ${JSON.stringify(filter)} ${k}`).toBe(ad.totals[k]);
        if (who === 'manager' && !Object.keys(filter).length) for (const k of COHORT_METRICS) expect(r.totals[k], `${level} ${k}`).toBeCloseTo(ad.totals[k]!, 9);
      }
    }
  }
  // The optimizer view groups by person: every staff member sees their own ads' order facts.
  for (const who of ['s1', 's4']) {
    const o = await list(who, { level: 'optimizer' });
    const ad = await list(who, { level: 'ad', owner_user_id: org[who as 's1' | 's4'].id });
    expect(o.totals.revenue).toBe(ad.totals.revenue);
  }
  // Nothing left for the job in the range read.
  expect(await t.db.selectFrom('ad_dim_dirty').select('id').where('day', '>=', FROM).where('day', '<=', TO).execute()).toEqual([]);
  return campaign;
}

const revenueOf = (r: Awaited<ReturnType<typeof list>>, campaignId: number) => r.list.find((x) => x.id === campaignId)?.metrics.revenue ?? null;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, ['/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group']);
  for (const k of ['manager', 'leader', 's1', 's4'] as const) tokens[k] = await t.login(org[k].account, org[k].password);
  const site = await createSite(t.db, { name: 'Rollup site' });
  drama.d1 = (await createDrama(t.db, { site_id: site.id, external_id: 'R1', name: 'Rollup One' })).id;
  drama.d2 = (await createDrama(t.db, { site_id: site.id, external_id: 'R2', name: 'Rollup Two' })).id;
  productId = (await createProduct(t.db, { site_id: site.id, external_id: 'P1', name: 'Rollup product' })).id;
  acc.a = (await createAdAccount(t.db, { name: 'Rollup A', users: [org.s1.id] })).id;
  acc.b = (await createAdAccount(t.db, { name: 'Rollup B', users: [org.s4.id] })).id;
  m1 = await mirrorAd(t.db, { adAccountId: acc.a, owner: org.s1.id, name: 'R-A1', dramaId: drama.d1 });
  m2 = await mirrorAd(t.db, { adAccountId: acc.a, owner: org.s1.id, name: 'R-A2', dramaId: drama.d2, platform: 'ec' });
  m3 = await mirrorAd(t.db, { adAccountId: acc.b, owner: org.s4.id, name: 'R-B1', dramaId: drama.d1 });
  for (const m of [m1, m2, m3]) for (const day of DAYS) await addStats(t.db, m.adId, day, { spend: 10_000 });
});
afterAll(() => t.close());

describe('campaign order rollup', () => {
  it('follows every cohort write: inserts, a recompute that replaces a row, an update, a deletion', async () => {
    await t.db
      .insertInto('ad_order_daily')
      .values([cohortRow(m1.ad, DAYS[0], 1_000), cohortRow(m1.ad, DAYS[1], 2_000), cohortRow(m2.ad, DAYS[1], 3_000), cohortRow(m3.ad, DAYS[2], 4_000)])
      .execute();
    let r = await expectConsistent();
    expect(revenueOf(r, m1.campaignId)).toBe(30);
    // refreshCohorts replaces a pair's row: delete then insert, in one transaction.
    await t.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ad_order_daily').where('ad_platform_id', '=', m1.ad).where('day', '=', DAYS[1]).execute();
      await trx.insertInto('ad_order_daily').values(cohortRow(m1.ad, DAYS[1], 2_500)).execute();
    });
    r = await expectConsistent();
    expect(revenueOf(r, m1.campaignId)).toBe(35);
    await t.db.updateTable('ad_order_daily').set({ revenue_usd_cents: 5_000, cohort_d0_usd_cents: 4_500 }).where('ad_platform_id', '=', m3.ad).execute();
    r = await expectConsistent();
    expect(revenueOf(r, m3.campaignId)).toBe(50);
    await t.db.deleteFrom('ad_order_daily').where('ad_platform_id', '=', m2.ad).execute();
    r = await expectConsistent();
    expect(revenueOf(r, m2.campaignId)).toBe(0);
  });

  it('counts the orders of an ad mirrored after them from the moment it is mirrored', async () => {
    await t.db.insertInto('ad_order_daily').values([cohortRow('991234', DAYS[1], 700), cohortRow('991234', DAYS[2], 300)]).execute();
    const before = await expectConsistent();
    // The sync mirrors the ad into a campaign it already has.
    const parent = await mirrorAd(t.db, { adAccountId: acc.b, owner: org.s4.id, name: 'R-B2', dramaId: drama.d2 });
    const ad = await t.db
      .insertInto('ads')
      .values({ platform_id: '991234', ad_account_id: acc.b, campaign_id: parent.campaignId, adset_id: parent.adsetId, name: 'Late ad', status: 'ACTIVE', effective_status: 'ACTIVE', synced_at: new Date(), owner_user_id: org.s4.id, drama_id: drama.d2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    m4 = { ...parent, adId: ad.id, ad: '991234' };
    const after = await expectConsistent();
    expect(revenueOf(after, m4.campaignId)).toBe(10);
    expect(after.totals.revenue).toBe((before.totals.revenue ?? 0) + 10);
  });

  it('moves the figures with an ad moved to another owner, ad account or campaign', async () => {
    await t.db.updateTable('ads').set({ owner_user_id: org.s4.id }).where('id', '=', m1.adId).execute();
    await expectConsistent();
    const s4 = await list('s4', { level: 'optimizer' });
    expect(s4.totals.revenue).toBe(95); // m1 (35), m3 (50) and m4 (10): all s4's now
    await t.db.updateTable('ads').set({ ad_account_id: acc.b }).where('id', '=', m1.adId).execute();
    await expectConsistent();
    await t.db.updateTable('ads').set({ campaign_id: m3.campaignId, adset_id: m3.adsetId }).where('id', '=', m1.adId).execute();
    const r = await expectConsistent();
    expect(revenueOf(r, m1.campaignId)).toBe(0);
    expect(revenueOf(r, m3.campaignId)).toBe(85);
    // Back where it was: account a, s1's, its own campaign.
    await t.db.updateTable('ads').set({ owner_user_id: org.s1.id, ad_account_id: acc.a, campaign_id: m1.campaignId, adset_id: m1.adsetId }).where('id', '=', m1.adId).execute();
    expect(revenueOf(await expectConsistent(), m1.campaignId)).toBe(35);
  });

  it('follows drama and product stamping on ads and a campaign changing platform', async () => {
    await t.db.updateTable('ads').set({ drama_id: drama.d2 }).where('id', '=', m3.adId).execute();
    await expectConsistent();
    expect((await list('manager', { level: 'campaign', drama_id: drama.d1 })).totals.revenue).toBe(35);
    await t.db.updateTable('ads').set({ drama_id: null, product_id: productId }).where('id', '=', m1.adId).execute();
    await expectConsistent();
    expect((await list('manager', { level: 'campaign', drama_id: drama.d1 })).totals.revenue).toBe(0);
    await t.db.updateTable('ad_campaigns').set({ platform: 'ec' }).where('id', '=', m3.campaignId).execute();
    await expectConsistent();
    expect((await list('manager', { level: 'campaign', platform: 'ec' })).totals.revenue).toBe(50);
    expect((await list('manager', { level: 'account', product_id: productId })).totals.revenue).toBe(35);
  });

  it('drops the figures of a deleted ad', async () => {
    await t.db.deleteFrom('ads').where('id', '=', m4.adId).execute();
    const r = await expectConsistent();
    expect(revenueOf(r, m4.campaignId)).toBe(0);
  });

  it('is built by the migration from what exists, and the job drains what no reader read', async () => {
    // Rebuilt from scratch (what 0023 does), the rollup is what the refresher keeps.
    const kept = (await bothSides()).rollup;
    const { backfillCampaignOrders } = await import('../../db/migrations/0023_campaign_order_rollup.ts');
    await backfillCampaignOrders(t.db as never);
    expect((await bothSides()).rollup).toEqual(kept);
    // A change outside every range read waits for the job.
    await t.db.insertInto('ad_order_daily').values(cohortRow(m2.ad, '2026-08-01', 900)).execute();
    expect((await bothSides()).rollup).not.toEqual((await bothSides()).adLevel);
    expect((await refreshRollupsJob.run({ db: t.db, signal: new AbortController().signal } as never)).status).toBe('success');
    const { rollup, adLevel } = await bothSides();
    expect(rollup).toEqual(adLevel);
  });
});
