// The company's orders generated in SQL on top of report-data.ts's ad data: sites with known
// webhook secrets, buyers acquired through the generated ads (some organic), their orders on a
// decaying recharge curve over the following days, a few refunds, every event as the webhook would
// have stored it, and the cohort facts (ad_order_daily) computed by migration 0012_cohorts' own
// backfill, which is what the intake keeps. See README.md "Orders".
import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/database.ts';
import * as cohorts from '../apps/server/src/db/migrations/0012_cohorts.ts';
import { backfillCampaignOrders } from '../apps/server/src/db/migrations/0023_campaign_order_rollup.ts';
import { secretBoxFor } from '../apps/server/src/lib/crypto.ts';
import { addDays } from '../apps/server/src/lib/tz.ts';
import { ADS_PER_ACCOUNT, ADS_PER_ADSET, ADSETS_PER_CAMPAIGN, type CompanyLayout } from './report-data.ts';

/** Drama sites, then shop sites: ad account a sends its buyers to site (a − 1) mod SITES + 1. */
export const SITES = 8;
const SHOP_SITES = 2;
/** Orders per buyer: 1 + hash mod 6 (3.5 on average), fewer for buyers acquired in the last days. */
const MAX_ORDERS_PER_BUYER = 6;
/** Days after the first payment on which the j-th order falls (a decaying recharge curve), before a 0–2 day jitter. */
const DAY_OF_ORDER = [0, 1, 3, 6, 11, 19];
/** Package prices (cents of USD). */
const PACKAGES = [199, 499, 999, 1999, 2999, 4999, 9999];

export interface SiteSecret {
  id: number;
  secret: string;
  linkTemplate: string;
}

export interface OrdersFigures {
  sites: number;
  buyers: number;
  orders: number;
  refunds: number;
  events: number;
  adOrderDaily: number;
  generateMs: number;
}

const templateOf = (site: number) =>
  site > SITES - SHOP_SITES
    ? `https://shop${site}.example.com/p/{product_id}?c={campaign_id}&s={adset_id}&a={ad_id}`
    : `https://drama${site}.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}`;

/** The sites, their secrets sealed by the server's secret box (the key the database keeps, which the server then reads). */
export async function generateSites(db: Db): Promise<SiteSecret[]> {
  const box = secretBoxFor(db, undefined);
  const out: SiteSecret[] = [];
  for (let s = 1; s <= SITES; s++) {
    const secret = `bench-site-${s}-${Math.random().toString(36).slice(2)}`;
    const shop = s > SITES - SHOP_SITES;
    const linkTemplate = templateOf(s);
    await db
      .insertInto('sites')
      .values({ id: s, name: `${shop ? 'Shop' : '短剧站'} ${s}`, domain: `${shop ? 'shop' : 'drama'}${s}.example.com`, platform: shop ? 'ec' : 'dj', link_template: linkTemplate, webhook_secret_enc: await box.encrypt(secret) })
      .execute();
    out.push({ id: s, secret, linkTemplate });
  }
  await sql`select setval(pg_get_serial_sequence('sites', 'id'), ${SITES})`.execute(db);
  return out;
}

/** The generated sites with their secrets in clear, read back through the server's secret box. */
export async function sitesOf(db: Db): Promise<SiteSecret[]> {
  const box = secretBoxFor(db, undefined);
  const rows = await db.selectFrom('sites').select(['id', 'link_template', 'webhook_secret_enc']).where('deleted_at', 'is', null).orderBy('id').execute();
  const out: SiteSecret[] = [];
  for (const r of rows) out.push({ id: r.id, secret: await box.decrypt(r.webhook_secret_enc), linkTemplate: r.link_template });
  return out;
}

/** Pseudo-random 0…(n−1) from an integer SQL expression. */
const spread = (expr: ReturnType<typeof sql>, n: number) => sql`(abs(hashint8(${expr})::bigint) % ${sql.lit(n)})`;

/**
 * About `orders` orders: buyers acquired on every day of the layout (six in seven through an ad,
 * the rest organic), each paying 1–6 times on a decaying curve, orders after today left out; 3 %
 * refunded in full the next day. One statement per table, on one connection (the caller's).
 * `withEvents` also stores every event in order_events as the webhook would (as many rows again,
 * with their JSON: it doubles the time; nothing measured reads them but the intake's duplicate
 * check, one index probe per incoming event).
 */
export async function generateOrders(db: Db, layout: CompanyLayout, orders: number, log: (line: string) => void, withEvents = false): Promise<Omit<OrdersFigures, 'generateMs' | 'sites'>> {
  const tz = 'Asia/Shanghai';
  const buyers = Math.max(1, Math.round(orders / 3.3));
  const started = performance.now();
  const step = (what: string) => log(`    ${what} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  const adsPerCampaign = ADS_PER_ADSET * ADSETS_PER_CAMPAIGN;
  // Buyer b: organic when b mod 7 = 0, else acquired through ad 1 + hash mod ads; the site of the ad's account (e-commerce accounts, every fifth, send buyers to the shops; organic: b mod SITES).
  await sql`
    create temporary table bench_buyers as
    select b, ad, case when ad is null then 1 + b % ${SITES}
                       when ((ad - 1) / ${ADS_PER_ACCOUNT} + 1) % 5 = 0 then ${SITES - SHOP_SITES + 1} + ((ad - 1) / ${ADS_PER_ACCOUNT}) % ${SHOP_SITES}
                       else 1 + ((ad - 1) / ${ADS_PER_ACCOUNT}) % ${SITES - SHOP_SITES} end as site,
           ${sql.lit(layout.firstDay)}::date + ${spread(sql`b::bigint * 31 + 7`, layout.days)}::int as day,
           ${spread(sql`b::bigint * 37 + 11`, 86_400)}::int as second,
           1 + ${spread(sql`b::bigint * 41 + 13`, MAX_ORDERS_PER_BUYER)}::int as k
    from (select b, case when b % 7 = 0 then null else 1 + ${spread(sql`b::bigint * 29 + 5`, layout.ads)}::int end as ad from generate_series(1, ${buyers}) b) x`.execute(db);
  const landing = sql`case when x.ad is null then null
      when x.site > ${SITES - SHOP_SITES} then 'https://shop' || x.site || '.example.com/p/P' || (x.ad % 20) || '?c=' || (120200000000000 + (x.ad - 1) / ${adsPerCampaign} + 1) || '&s=' || (120210000000000 + (x.ad - 1) / ${ADS_PER_ADSET} + 1) || '&a=' || (120220000000000 + x.ad)
      else 'https://drama' || x.site || '.example.com/play/D' || (x.ad % 40) || '?ep=1&c=' || (120200000000000 + (x.ad - 1) / ${adsPerCampaign} + 1) || '&s=' || (120210000000000 + (x.ad - 1) / ${ADS_PER_ADSET} + 1) || '&a=' || (120220000000000 + x.ad) end`;
  const paidAt = (dayExpr: ReturnType<typeof sql>) => sql`((${dayExpr})::timestamp + make_interval(secs => x.second)) at time zone ${tz}`;
  await sql`
    insert into order_buyers (id, site_id, app_user_id, registered_at, country, first_order_no, first_paid_at, acquisition_day,
                              campaign_platform_id, adset_platform_id, ad_platform_id, attribution_source, attributed_paid_at, landing_url)
    select x.b, x.site, 'u' || x.b, ${paidAt(sql`x.day`)} - interval '20 minutes', 'US', 'B' || x.b || '-0', ${paidAt(sql`x.day`)}, x.day,
           case when x.ad is null then null else (120200000000000 + (x.ad - 1) / ${adsPerCampaign} + 1)::text end,
           case when x.ad is null then null else (120210000000000 + (x.ad - 1) / ${ADS_PER_ADSET} + 1)::text end,
           case when x.ad is null then null else (120220000000000 + x.ad)::text end,
           case when x.ad is null then null else 'landing_url' end,
           case when x.ad is null then null else ${paidAt(sql`x.day`)} end,
           ${landing}
    from bench_buyers x order by x.b`.execute(db);
  await sql`select setval(pg_get_serial_sequence('order_buyers', 'id'), (select max(id) from order_buyers))`.execute(db);
  step(`order_buyers: ${buyers.toLocaleString('en-US')}`);

  // Order j of buyer b: order_no B<b>-<j>, paid DAY_OF_ORDER[j] (+0–2 days for j > 0) after the first payment, kept when not after today.
  await sql`
    create temporary table bench_orders as
    select row_number() over (order by o.day, o.b, o.j)::int as id, o.*
    from (
      select x.b, x.ad, x.site, x.second, j, x.day + case when j = 0 then 0 else (array[${sql.join(DAY_OF_ORDER.map((n) => sql.lit(n)))}])[j + 1] + ${spread(sql`x.b::bigint * 43 + j`, 3)}::int end as day,
             (array[${sql.join(PACKAGES.map((n) => sql.lit(n)))}])[1 + ${spread(sql`x.b::bigint * 47 + j`, PACKAGES.length)}] as cents,
             ${spread(sql`x.b::bigint * 53 + j`, 33)} = 0 as refunded
      from bench_buyers x cross join lateral generate_series(0, x.k - 1) j
    ) o where o.day <= ${sql.lit(layout.lastDay)}::date`.execute(db);
  const refundDay = sql`o.day + 1`;
  const refundable = sql`o.refunded and o.day + 1 <= ${sql.lit(layout.lastDay)}::date`;
  await sql`
    insert into orders (id, site_id, order_no, buyer_id, app_user_id, status, currency, amount_minor, refunded_minor, amount_usd_cents, refunded_usd_cents,
                        paid_at, paid_day, refunded_at, user_registered_at, country, landing_url, campaign_platform_id, adset_platform_id, ad_platform_id,
                        attribution_source, is_new_payer, drama_external_id, episode, product_external_id, quantity, unit_price_minor, source, created_at, updated_at)
    select o.id, o.site, 'B' || o.b || '-' || o.j, o.b, 'u' || o.b, case when ${refundable} then 'refunded' else 'paid' end, 'USD', o.cents,
           case when ${refundable} then o.cents else 0 end, o.cents, case when ${refundable} then o.cents else 0 end,
           ${paidAt(sql`o.day`)}, o.day, case when ${refundable} then ${paidAt(refundDay)} end, b.registered_at, 'US', b.landing_url,
           b.campaign_platform_id, b.adset_platform_id, b.ad_platform_id, b.attribution_source, o.j = 0,
           case when o.site <= ${SITES - SHOP_SITES} then 'D' || (coalesce(o.ad, o.b) % 40) end, case when o.site <= ${SITES - SHOP_SITES} then 1 + o.j end,
           case when o.site > ${SITES - SHOP_SITES} then 'P' || (coalesce(o.ad, o.b) % 20) end, case when o.site > ${SITES - SHOP_SITES} then 1 end,
           case when o.site > ${SITES - SHOP_SITES} then o.cents end, 'webhook', ${paidAt(sql`o.day`)}, ${paidAt(sql`o.day`)}
    from bench_orders o join order_buyers b on b.id = o.b, lateral (select o.second) x(second)`.execute(db);
  await sql`select setval(pg_get_serial_sequence('orders', 'id'), (select max(id) from orders))`.execute(db);
  step('orders');
  await sql`
    insert into order_refunds (order_id, site_id, currency, amount_minor, amount_usd_cents, refunded_at, refund_day, created_at)
    select o.id, o.site_id, 'USD', o.refunded_minor, o.refunded_usd_cents, o.refunded_at, o.paid_day + 1, o.refunded_at from orders o where o.refunded_minor > 0 order by o.id`.execute(db);
  step('order_refunds');
  if (!withEvents) {
    step('order_events left empty (BENCH_ORDER_EVENTS=1 fills them)');
  } else {
    await generateEvents(db, tz);
    step('order_events');
  }
  await sql`drop table bench_orders`.execute(db);
  await sql`drop table bench_buyers`.execute(db);
  const count = async (t: string) => Number((await sql<{ n: number }>`select count(*)::bigint as n from ${sql.table(t)}`.execute(db)).rows[0]!.n);
  return { buyers: await count('order_buyers'), orders: await count('orders'), refunds: await count('order_refunds'), events: await count('order_events'), adOrderDaily: 0 };
}

/** Every accepted event as the webhook stores it (known fields, content hash), paid then refunded. */
async function generateEvents(db: Db, tz: string): Promise<void> {
  const payload = (event: string) => sql`jsonb_strip_nulls(jsonb_build_object('event', ${sql.lit(event)}, 'order_no', o.order_no, 'amount', to_char(o.amount_minor / 100.0, 'FM999999990.00'),
      'currency', o.currency, 'paid_at', to_char(o.paid_at at time zone ${sql.lit(tz)}, 'YYYY-MM-DD"T"HH24:MI:SS"+08:00"'),
      'refunded_at', ${event === 'order.refunded' ? sql`to_char(o.refunded_at at time zone ${sql.lit(tz)}, 'YYYY-MM-DD"T"HH24:MI:SS"+08:00"')` : sql`null::text`},
      'app_user_id', o.app_user_id, 'country', o.country, 'landing_url', o.landing_url))`;
  await sql`
    insert into order_events (site_id, order_no, event, order_id, content_hash, payload, source, received_at)
    select o.site_id, o.order_no, 'order.paid', o.id, encode(sha256(convert_to(o.site_id || o.order_no || 'paid' || o.amount_minor, 'UTF8')), 'hex'), ${payload('order.paid')}, 'webhook', o.paid_at
    from orders o order by o.id`.execute(db);
  await sql`
    insert into order_events (site_id, order_no, event, order_id, content_hash, payload, source, received_at)
    select o.site_id, o.order_no, 'order.refunded', o.id, encode(sha256(convert_to(o.site_id || o.order_no || 'refunded' || o.refunded_minor, 'UTF8')), 'hex'), ${payload('order.refunded')}, 'webhook', o.refunded_at
    from orders o where o.refunded_minor > 0 order by o.id`.execute(db);
}

/**
 * ad_order_daily from the stored orders, by migration 0012_cohorts itself (the table dropped and
 * created again with its backfill), then what later migrations hang on it: 0015's triggers that
 * log its changes for the rollups (dropped with the table) and 0023's campaign rollup of it.
 */
export async function rebuildCohorts(db: Db): Promise<number> {
  await sql`drop table ad_order_daily`.execute(db);
  await cohorts.up(db as never);
  await sql`
    create trigger ad_dim_cohorts_ins after insert on ad_order_daily referencing new table as new_rows for each statement execute function ad_dim_mark_cohorts();
    create trigger ad_dim_cohorts_upd after update on ad_order_daily referencing old table as old_rows new table as new_rows for each statement execute function ad_dim_mark_cohorts();
    create trigger ad_dim_cohorts_del after delete on ad_order_daily referencing old table as old_rows for each statement execute function ad_dim_mark_cohorts();
  `.execute(db);
  await backfillCampaignOrders(db as never);
  return Number((await sql<{ n: number }>`select count(*)::bigint as n from ad_order_daily`.execute(db)).rows[0]!.n);
}

/** The last day of the layout minus `days` (for ranges). */
export const daysBefore = (layout: CompanyLayout, days: number) => addDays(layout.lastDay, -days);
