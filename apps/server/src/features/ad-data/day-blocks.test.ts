import { type AdReportResult, type MetricKey } from '@ads/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { addStats, createWebhookSite, mirrorAd, sendOrders, type Mirror } from '../../test/delivery.ts';
import { createAdAccount, createUser } from '../../test/factories.ts';
import { addDays } from '../../lib/tz.ts';
import { refreshCampaignStats } from './ad-sync.service.ts';
import { BLOCK_TOP_LEVEL, blockOf, splitRange } from './day-blocks.ts';

// The block rollups of migration 0025: a range is split into aligned blocks and single days that
// cover it exactly, never across a cohort cutoff; the triggers keep the blocks equal to their daily
// rows under every kind of write; and the views read through them give the figures of the ad-level
// facts (which have no blocks) for ranges long and short, across the cutoffs of cohort figures.
// Today is 2026-11-01 in REPORT_TIMEZONE.

const dayList = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};

describe('splitRange', () => {
  it('covers a range exactly with aligned blocks and days, no block across a cutoff, few pieces', () => {
    const cutoffs = ['2026-10-31', '2026-10-30', '2026-10-24', '2026-10-17'];
    let starts = 0;
    for (let a = 0; a < 400; a += 7) {
      for (const len of [1, 2, 5, 16, 30, 31, 63, 90, 200, 400]) {
        const from = addDays('2025-09-01', a);
        const to = addDays(from, len - 1);
        for (const cuts of [[], cutoffs]) {
          const { blocks, days } = splitRange(from, to, cuts);
          const covered: string[] = [...days];
          for (const b of blocks) {
            const level = Math.floor(b / 1_000_000);
            expect(level).toBeGreaterThanOrEqual(1);
            expect(level).toBeLessThanOrEqual(BLOCK_TOP_LEVEL);
            const first = blockOf(addDays('1970-01-01', (b % 1_000_000) * 2 ** level), level);
            expect(first.block).toBe(b);
            covered.push(...dayList(first.first, first.last));
            // Wholly on or before a cutoff, or wholly after it.
            for (const c of cuts) expect(c >= first.first && c < first.last, `${b} across ${c}`).toBe(false);
          }
          expect(covered.sort()).toEqual(dayList(from, to));
          // About two blocks a level at most, plus the days no block fits.
          if (!cuts.length) expect(blocks.length + days.length).toBeLessThanOrEqual(2 * BLOCK_TOP_LEVEL + 2 + Math.floor(len / 2 ** BLOCK_TOP_LEVEL));
          starts++;
        }
      }
    }
    expect(starts).toBe(1160);
    // Thirty days read as a handful of pieces instead of thirty rows.
    const month = splitRange('2026-10-03', '2026-11-01', ['2026-10-31']);
    expect(month.blocks.length + month.days.length).toBeLessThanOrEqual(10);
    expect(month.blocks.length).toBeGreaterThan(0);
  });
});

const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';
const FIRST = '2026-04-01';
const TODAY = '2026-11-01';
const COLUMNS: MetricKey[] = ['spend', 'impressions', 'clicks', 'ctr', 'revenue', 'new_payers', 'roi', 'd0_roi', 'd1_roi', 'd7_roi', 'd30_roi'];

let t: TestApp;
let token: string;
const ads: Mirror[] = [];

interface BlockRow {
  block: number;
  day: string;
  key: string;
  n: number;
  facts: Record<string, number>;
}

/** Block rows computed in TypeScript from a daily table (blockOf), against those the triggers keep. */
async function expectBlocksMatch(daily: 'campaign_stats_daily' | 'campaign_order_daily', blocks: 'campaign_stats_blocks' | 'campaign_order_blocks', facts: string[]) {
  const keyOf = (r: Record<string, unknown>) => ['campaign_id', 'ad_account_id', 'owner_user_id', 'platform', 'drama_id', 'product_id'].map((c) => String(r[c] ?? '∅')).join('|');
  const { rows: dailyRows } = await sql<Record<string, unknown>>`select *, day::text as day from ${sql.table(daily)}`.execute(t.db);
  const expected = new Map<string, BlockRow>();
  for (const r of dailyRows) {
    for (let level = 1; level <= BLOCK_TOP_LEVEL; level++) {
      const b = blockOf(String(r.day), level);
      const id = `${b.block}|${keyOf(r)}`;
      const row = expected.get(id) ?? { block: b.block, day: b.last, key: keyOf(r), n: 0, facts: Object.fromEntries(facts.map((f) => [f, 0])) };
      row.n++;
      for (const f of facts) row.facts[f]! += Number(r[f]);
      expected.set(id, row);
    }
  }
  const { rows: stored } = await sql<Record<string, unknown>>`select *, day::text as day from ${sql.table(blocks)}`.execute(t.db);
  const actual = new Map(stored.map((r) => [`${r.block}|${keyOf(r)}`, { block: Number(r.block), day: String(r.day), key: keyOf(r), n: Number(r.n), facts: Object.fromEntries(facts.map((f) => [f, Number(r[f])])) }]));
  expect(actual.size).toBe(expected.size);
  expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
  return expected.size;
}

const STATS_FACTS = ['spend_usd_cents', 'impressions', 'clicks', 'link_clicks', 'purchases', 'purchase_value_usd_cents', 'video_watch_ms'];
const ORDER_FACTS = ['revenue_usd_cents', 'payers', 'new_payers', 'cohort_d0_usd_cents', 'cohort_d1_usd_cents', 'cohort_d7_usd_cents', 'cohort_d30_usd_cents'];

beforeAll(async () => {
  t = await buildTestApp();
  const manager = await createUser(t.db, { is_admin: 1 });
  const staff = await createUser(t.db, {});
  token = await t.login(manager.account, manager.password);
  const site = await createWebhookSite(t, token, { link_template: TEMPLATE });
  const accounts = [await createAdAccount(t.db, {}), await createAdAccount(t.db, {})];
  for (let i = 0; i < 3; i++) ads.push(await mirrorAd(t.db, { adAccountId: accounts[i % 2]!.id, owner: i === 0 ? manager.id : staff.id, siteId: site.id, name: `Block ${i}` }));
  // Seven months of days, every third day per ad, so every level of block has rows.
  let n = 0;
  for (const [i, ad] of ads.entries()) {
    for (let d = addDays(FIRST, i); d <= TODAY; d = addDays(d, 3)) await addStats(t.db, ad.adId, d, { spend: 500 + ((d.charCodeAt(8) * 31 + i * 17) % 400), clicks: 10 + i });
    const land = `https://drama.example.com/play/D1?c=${ad.campaign}&s=${ad.adset}&a=${ad.ad}`;
    // Buyers acquired on assorted days, each paying again a few days later (cohort revenue after D0).
    const events: Record<string, unknown>[] = [];
    for (let d = addDays(FIRST, 2 + i); d <= TODAY; d = addDays(d, 11)) {
      const buyer = `b${i}-${d}`;
      events.push({ event: 'order.paid', order_no: `BLK-${++n}`, app_user_id: buyer, amount: `${3 + (n % 5)}.99`, currency: 'USD', paid_at: `${d}T09:00:00+08:00`, landing_url: land });
      const again = addDays(d, 1 + (n % 9));
      if (again <= TODAY) events.push({ event: 'order.paid', order_no: `BLK-${++n}`, app_user_id: buyer, amount: '2.00', currency: 'USD', paid_at: `${again}T09:00:00+08:00`, landing_url: land });
    }
    await sendOrders(t, site, events);
  }
  // A report drains the rollup refresher's log, so campaign_order_daily is current from here on.
  await report('campaign', FIRST, TODAY);
});
afterAll(() => t.close());

async function report(level: 'optimizer' | 'account' | 'campaign' | 'adset' | 'ad', from: string, to: string): Promise<AdReportResult> {
  const res = await t.call('/api/ad-reports/list', { level, date_from: from, date_to: to, page: 1, page_size: 50, columns: COLUMNS }, { token });
  expect(res.code, res.message).toBe(0);
  return res.data as AdReportResult;
}

describe('block rollups', () => {
  it('follow every write of the daily tables: inserts and upserts, an update, a refresh that replaces days, deletes, a truncate', async () => {
    expect(await expectBlocksMatch('campaign_stats_daily', 'campaign_stats_blocks', STATS_FACTS)).toBeGreaterThan(100);
    expect(await expectBlocksMatch('campaign_order_daily', 'campaign_order_blocks', ORDER_FACTS)).toBeGreaterThan(50);
    const { rows: orderRows } = await sql<Record<string, unknown>>`select * from campaign_order_daily`.execute(t.db);
    // One upsert statement that both updates a day the campaign has and inserts one it has not.
    const c = await t.db.selectFrom('campaign_stats_daily').selectAll().where('campaign_id', '=', ads[0]!.campaignId).where('day', '=', FIRST).executeTakeFirstOrThrow();
    await sql`insert into campaign_stats_daily (campaign_id, day, ad_account_id, owner_user_id, platform, currency, spend_minor, spend_usd_cents, clicks)
      values (${c.campaign_id}, ${FIRST}, ${c.ad_account_id}, ${c.owner_user_id}, ${c.platform}, 'USD', 77, 77, 1), (${c.campaign_id}, ${addDays(FIRST, 1)}, ${c.ad_account_id}, ${c.owner_user_id}, ${c.platform}, 'USD', 55, 55, 2)
      on conflict (campaign_id, day) do update set spend_usd_cents = campaign_stats_daily.spend_usd_cents + excluded.spend_usd_cents, clicks = campaign_stats_daily.clicks + excluded.clicks`.execute(t.db);
    await expectBlocksMatch('campaign_stats_daily', 'campaign_stats_blocks', STATS_FACTS);
    // An exchange rate re-priced, and an owner changed on some days only (blocks keep them apart).
    await sql`update campaign_stats_daily set spend_usd_cents = spend_usd_cents + 3 where day between '2026-06-10' and '2026-07-20'`.execute(t.db);
    await sql`update campaign_stats_daily set owner_user_id = null where campaign_id = ${ads[1]!.campaignId} and day >= '2026-09-01'`.execute(t.db);
    await expectBlocksMatch('campaign_stats_daily', 'campaign_stats_blocks', STATS_FACTS);
    // The sync's refresh of an account's days (delete and insert from ad_stats_daily).
    const days = dayList('2026-08-01', '2026-08-31');
    const acct = await t.db.selectFrom('ads').select('ad_account_id').where('id', '=', ads[0]!.adId).executeTakeFirstOrThrow();
    await t.db.transaction().execute((trx) => refreshCampaignStats(trx, acct.ad_account_id, days));
    await expectBlocksMatch('campaign_stats_daily', 'campaign_stats_blocks', STATS_FACTS);
    // Days deleted: blocks left without rows go (n = 0), none stays behind with zeros.
    await sql`delete from campaign_stats_daily where day between '2026-05-01' and '2026-06-30'`.execute(t.db);
    await sql`delete from campaign_order_daily where day between '2026-05-01' and '2026-06-30'`.execute(t.db);
    await expectBlocksMatch('campaign_stats_daily', 'campaign_stats_blocks', STATS_FACTS);
    await expectBlocksMatch('campaign_order_daily', 'campaign_order_blocks', ORDER_FACTS);
    const { rows: empty } = await sql<{ n: number }>`select count(*)::int as n from campaign_stats_blocks where n = 0`.execute(t.db);
    expect(empty[0]!.n).toBe(0);
    // Put back as the sync would write them, then a truncate and a refill (the orders backfill does this).
    const accounts = await t.db.selectFrom('ads').select('ad_account_id').distinct().execute();
    for (const a of accounts) await t.db.transaction().execute((trx) => refreshCampaignStats(trx, a.ad_account_id, dayList(FIRST, TODAY)));
    await sql`truncate campaign_order_daily`.execute(t.db);
    const { rows: cleared } = await sql<{ n: number }>`select count(*)::int as n from campaign_order_blocks`.execute(t.db);
    expect(cleared[0]!.n).toBe(0);
    for (const r of orderRows) await t.db.insertInto('campaign_order_daily').values(r as never).execute();
    await expectBlocksMatch('campaign_stats_daily', 'campaign_stats_blocks', STATS_FACTS);
    await expectBlocksMatch('campaign_order_daily', 'campaign_order_blocks', ORDER_FACTS);
  });

  it('give the views the figures of the ad-level facts, over long and short ranges and across cohort cutoffs', async () => {
    const ranges: [string, string][] = [
      [FIRST, TODAY],
      ['2026-10-03', TODAY],
      ['2026-10-26', TODAY],
      ['2026-09-01', '2026-10-31'],
      ['2026-05-17', '2026-09-30'],
      ['2026-07-04', '2026-07-04'],
      ['2026-06-30', '2026-08-02'],
    ];
    // The first ranges do read blocks, and across the cutoffs of D0…D30.
    expect(splitRange(FIRST, TODAY, ['2026-10-31', '2026-10-30', '2026-10-24', '2026-10-01']).blocks.length).toBeGreaterThan(3);
    for (const [from, to] of ranges) {
      const ad = await report('ad', from, to);
      expect(ad.totals.spend, `${from}…${to}`).toBeGreaterThan(0);
      for (const level of ['optimizer', 'account', 'campaign'] as const) {
        const r = await report(level, from, to);
        for (const k of COLUMNS) expect(r.totals[k], `${level} ${k} ${from}…${to}`).toEqual(ad.totals[k]);
        // A row's figures add up to the totals.
        expect(r.list.reduce((s, row) => s + (row.metrics.spend ?? 0), 0)).toBeCloseTo(ad.totals.spend ?? 0, 6);
      }
    }
    // Cohort figures that have matured by today are there at all.
    const all = await report('campaign', FIRST, TODAY);
    expect(all.totals.d30_roi).toBeGreaterThan(0);
    expect(all.totals.d1_roi).toBeGreaterThan(all.totals.d0_roi ?? 0);
  });
});
