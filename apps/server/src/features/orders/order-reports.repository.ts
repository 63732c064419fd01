import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AttributionSource, OrderSource, OrderStatus } from '../../db/schema.ts';
import { escapeLike } from '../../lib/sql.ts';

// SQL of the order screens (订单列表, 订单分析) over the order tables of docs/orders-design.md.
// Every total is computed from the same filtered rows the page shows, so it equals their sum.

/** Filters of the order list (and the parts the analysis shares). */
export interface OrderFilters {
  /** Payment days (REPORT_TIMEZONE), inclusive. */
  from?: string;
  to?: string;
  siteId?: number;
  dramaId?: number;
  productId?: number;
  country?: string;
  attributed?: boolean;
  orderNo?: string;
  appUserId?: string;
  status?: OrderStatus;
  newPayer?: boolean;
  campaignId?: string;
  adId?: string;
  /** Paid USD cents, inclusive. */
  minCents?: number;
  maxCents?: number;
}

/** Conditions on an orders row aliased `o`. */
function orderWhere(f: OrderFilters): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (f.from) parts.push(sql`o.paid_day >= ${f.from}`);
  if (f.to) parts.push(sql`o.paid_day <= ${f.to}`);
  if (f.siteId !== undefined) parts.push(sql`o.site_id = ${f.siteId}`);
  if (f.dramaId !== undefined) parts.push(sql`o.drama_id = ${f.dramaId}`);
  if (f.productId !== undefined) parts.push(sql`o.product_id = ${f.productId}`);
  if (f.country) parts.push(sql`o.country = ${f.country}`);
  if (f.attributed !== undefined) parts.push(f.attributed ? sql`o.attribution_source is not null` : sql`o.attribution_source is null`);
  if (f.orderNo) parts.push(sql`o.order_no = ${f.orderNo}`);
  if (f.appUserId) parts.push(sql`o.app_user_id = ${f.appUserId}`);
  if (f.status) parts.push(sql`o.status = ${f.status}`);
  if (f.newPayer !== undefined) parts.push(sql`o.is_new_payer = ${f.newPayer}`);
  if (f.campaignId) parts.push(sql`o.campaign_platform_id = ${f.campaignId}`);
  if (f.adId) parts.push(sql`o.ad_platform_id = ${f.adId}`);
  if (f.minCents !== undefined) parts.push(sql`o.amount_usd_cents >= ${f.minCents}`);
  if (f.maxCents !== undefined) parts.push(sql`o.amount_usd_cents <= ${f.maxCents}`);
  return sql.join(parts, sql` and `);
}

export type OrderSortField = 'paid_at' | 'order_no' | 'paid_usd' | 'usd_amount' | 'country' | 'status';

const SORT_SQL: Record<OrderSortField, RawBuilder<unknown>> = {
  paid_at: sql`o.paid_at`,
  order_no: sql`o.order_no`,
  paid_usd: sql`o.amount_usd_cents`,
  usd_amount: sql`(o.amount_usd_cents - o.refunded_usd_cents)`,
  country: sql`o.country`,
  status: sql`o.status`,
};

export interface OrderRowRaw {
  id: number;
  site_id: number;
  site_name: string;
  order_no: string;
  status: OrderStatus;
  currency: string;
  amount_minor: number;
  refunded_minor: number;
  amount_usd_cents: number | null;
  refunded_usd_cents: number;
  paid_at: Date;
  paid_day: string;
  refunded_at: Date | null;
  app_user_id: string;
  is_new_payer: boolean;
  country: string | null;
  campaign_platform_id: string | null;
  adset_platform_id: string | null;
  ad_platform_id: string | null;
  campaign_ref_id: number | null;
  campaign_name: string | null;
  ad_ref_id: number | null;
  ad_name: string | null;
  attribution_source: AttributionSource | null;
  drama_id: number | null;
  drama_external_id: string | null;
  drama_name: string | null;
  episode: number | null;
  product_id: number | null;
  product_external_id: string | null;
  product_name: string | null;
  quantity: number | null;
  unit_price_minor: number | null;
  source: OrderSource;
  landing_url: string | null;
  user_registered_at: Date | null;
  buyer_id: number;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toRowRaw(r: Record<string, unknown>): OrderRowRaw {
  return {
    ...(r as unknown as OrderRowRaw),
    amount_minor: num(r.amount_minor),
    refunded_minor: num(r.refunded_minor),
    amount_usd_cents: numOrNull(r.amount_usd_cents),
    refunded_usd_cents: num(r.refunded_usd_cents),
    unit_price_minor: numOrNull(r.unit_price_minor),
    paid_day: String(r.paid_day),
  };
}

/** Selects an order with its site, catalog and ad mirror names (alias o). */
const ORDER_SELECT = sql`
  select o.id, o.site_id, s.name as site_name, o.order_no, o.status, o.currency, o.amount_minor, o.refunded_minor, o.amount_usd_cents,
         o.refunded_usd_cents, o.paid_at, o.paid_day::text as paid_day, o.refunded_at, o.app_user_id, o.is_new_payer, o.country,
         o.campaign_platform_id, o.adset_platform_id, o.ad_platform_id, c.id as campaign_ref_id, c.name as campaign_name, a.id as ad_ref_id,
         a.name as ad_name, o.attribution_source, o.drama_id, o.drama_external_id, d.name as drama_name, o.episode, o.product_id,
         o.product_external_id, p.name as product_name, o.quantity, o.unit_price_minor, o.source, o.landing_url, o.user_registered_at, o.buyer_id
  from orders o
  join sites s on s.id = o.site_id
  left join dramas d on d.id = o.drama_id
  left join products p on p.id = o.product_id
  left join ad_campaigns c on c.platform_id = o.campaign_platform_id
  left join ads a on a.platform_id = o.ad_platform_id`;

export interface OrderTotalsRaw {
  orders: number;
  new_payers: number;
  paid_cents: number;
  refunded_cents: number;
  net_cents: number;
  without_rate: number;
  currencies: { currency: string; orders: number; amount_minor: number; refunded_minor: number }[];
}

/** One page of orders, how many match, and the totals over every match. */
export async function listOrders(
  db: Db,
  f: OrderFilters,
  page: { limit: number; offset: number; sort: OrderSortField; order: 'asc' | 'desc' },
): Promise<{ rows: OrderRowRaw[]; total: number; totals: OrderTotalsRaw }> {
  const where = orderWhere(f);
  const dir = page.order === 'asc' ? sql`asc` : sql`desc`;
  const [rows, agg, currencies] = await Promise.all([
    sql<Record<string, unknown>>`${ORDER_SELECT} where ${where} order by ${SORT_SQL[page.sort]} ${dir} nulls last, o.id ${dir} limit ${page.limit} offset ${page.offset}`.execute(db),
    sql<Record<string, unknown>>`
      select count(*)::int as orders, count(*) filter (where o.is_new_payer)::int as new_payers,
             coalesce(sum(o.amount_usd_cents), 0)::bigint as paid_cents, coalesce(sum(o.refunded_usd_cents), 0)::bigint as refunded_cents,
             coalesce(sum(o.amount_usd_cents - o.refunded_usd_cents), 0)::bigint as net_cents,
             count(*) filter (where o.amount_usd_cents is null)::int as without_rate
      from orders o where ${where}`.execute(db),
    sql<Record<string, unknown>>`
      select o.currency, count(*)::int as orders, sum(o.amount_minor)::bigint as amount_minor, sum(o.refunded_minor)::bigint as refunded_minor
      from orders o where ${where} group by o.currency order by count(*) desc, o.currency`.execute(db),
  ]);
  const a = agg.rows[0] ?? {};
  return {
    rows: rows.rows.map(toRowRaw),
    total: num(a.orders),
    totals: {
      orders: num(a.orders),
      new_payers: num(a.new_payers),
      paid_cents: num(a.paid_cents),
      refunded_cents: num(a.refunded_cents),
      net_cents: num(a.net_cents),
      without_rate: num(a.without_rate),
      currencies: currencies.rows.map((c) => ({ currency: String(c.currency), orders: num(c.orders), amount_minor: num(c.amount_minor), refunded_minor: num(c.refunded_minor) })),
    },
  };
}

/** One order with its names (undefined: none). */
export async function findOrder(db: Db, id: number): Promise<OrderRowRaw | undefined> {
  const r = await sql<Record<string, unknown>>`${ORDER_SELECT} where o.id = ${id}`.execute(db);
  return r.rows[0] ? toRowRaw(r.rows[0]) : undefined;
}

/** What the order detail shows beside the order: its buyer, refunds, events, site template and the attribution's ad objects. */
export async function orderContext(db: Db, o: OrderRowRaw) {
  const [buyer, refunds, events, site] = await Promise.all([
    db.selectFrom('order_buyers').selectAll().where('id', '=', o.buyer_id).executeTakeFirstOrThrow(),
    db.selectFrom('order_refunds').select(['id', 'amount_minor', 'currency', 'amount_usd_cents', 'refunded_at', 'refund_day']).where('order_id', '=', o.id).orderBy('refunded_at').orderBy('id').execute(),
    db.selectFrom('order_events').select(['id', 'event', 'source', 'received_at', 'delivery_id', 'payload']).where('site_id', '=', o.site_id).where('order_no', '=', o.order_no).orderBy('id').execute(),
    db.selectFrom('sites').select(['link_template']).where('id', '=', o.site_id).executeTakeFirstOrThrow(),
  ]);
  const [firstOrder, buyerSums, campaign, adset, ad] = await Promise.all([
    db.selectFrom('orders').select(['id']).where('site_id', '=', o.site_id).where('order_no', '=', buyer.first_order_no).executeTakeFirst(),
    sql<{ orders: number; paid: string | number; net: string | number }>`
      select count(*)::int as orders, coalesce(sum(amount_usd_cents), 0)::bigint as paid, coalesce(sum(amount_usd_cents - refunded_usd_cents), 0)::bigint as net
      from orders where buyer_id = ${o.buyer_id}`.execute(db),
    buyer.campaign_platform_id ? db.selectFrom('ad_campaigns').select(['id', 'name', 'platform_id', 'ad_account_id', 'owner_user_id']).where('platform_id', '=', buyer.campaign_platform_id).executeTakeFirst() : undefined,
    buyer.adset_platform_id ? db.selectFrom('ad_sets').select(['id', 'name', 'platform_id', 'ad_account_id', 'owner_user_id']).where('platform_id', '=', buyer.adset_platform_id).executeTakeFirst() : undefined,
    buyer.ad_platform_id ? db.selectFrom('ads').select(['id', 'name', 'platform_id', 'ad_account_id', 'owner_user_id']).where('platform_id', '=', buyer.ad_platform_id).executeTakeFirst() : undefined,
  ]);
  const known = ad ?? adset ?? campaign;
  const [account, owner] = await Promise.all([
    known ? db.selectFrom('ad_accounts').select(['id', 'name', 'platform_id']).where('id', '=', known.ad_account_id).executeTakeFirst() : undefined,
    known?.owner_user_id ? db.selectFrom('users').select(['id', 'name']).where('id', '=', known.owner_user_id).executeTakeFirst() : undefined,
  ]);
  const sums = buyerSums.rows[0];
  return {
    buyer,
    firstOrderId: firstOrder?.id ?? null,
    buyerOrders: num(sums?.orders),
    buyerPaidCents: num(sums?.paid),
    buyerNetCents: num(sums?.net),
    refunds: refunds.map((r) => ({ ...r, amount_minor: Number(r.amount_minor), amount_usd_cents: numOrNull(r.amount_usd_cents), refund_day: String(r.refund_day) })),
    events,
    linkTemplate: site.link_template,
    campaign,
    adset,
    ad,
    account,
    owner,
  };
}

// ---------------------------------------------------------------------------------------------
// 订单分析

export type Split = 'none' | 'site' | 'drama' | 'product' | 'country';

export interface DailyFigures {
  orders: number;
  paid_cents: number;
  refunds_cents: number;
  refunds: number;
  payers: number;
  new_payers: number;
}

export interface DailyRowRaw extends DailyFigures {
  day: string;
  /** The split key as text (an id or a country code); null: orders without one. */
  key: string | null;
  name: string | null;
}

const SPLIT_KEY: Record<Split, RawBuilder<unknown>> = {
  none: sql`null::text`,
  site: sql`o.site_id::text`,
  drama: sql`o.drama_id::text`,
  product: sql`o.product_id::text`,
  country: sql`o.country`,
};

const SPLIT_NAME: Record<Split, RawBuilder<unknown>> = {
  none: sql`null::text`,
  site: sql`(select s.name from sites s where s.id = g.k::int)`,
  drama: sql`(select d.name from dramas d where d.id = g.k::int)`,
  product: sql`(select p.name from products p where p.id = g.k::int)`,
  country: sql`g.k`,
};

/**
 * Facts per (report day, split key): orders paid that day with their buyers, and refunds made
 * that day (of orders of the same filters, whatever day they were paid), summed per group.
 */
function dailyCte(from: string, to: string, split: Split, f: OrderFilters): RawBuilder<unknown> {
  const where = orderWhere({ ...f, from: undefined, to: undefined });
  const key = SPLIT_KEY[split];
  return sql`with f as (
      select o.paid_day as day, ${key} as k, 1 as orders, coalesce(o.amount_usd_cents, 0) as paid, 0 as refunds, 0 as refund_count, o.buyer_id as payer,
             case when o.is_new_payer then 1 else 0 end as new_payer
      from orders o where o.paid_day >= ${from} and o.paid_day <= ${to} and ${where}
      union all
      select r.refund_day, ${key}, 0, 0, coalesce(r.amount_usd_cents, 0), 1, null, 0
      from order_refunds r join orders o on o.id = r.order_id where r.refund_day >= ${from} and r.refund_day <= ${to} and ${where}
    ),
    g as (
      select day, k, sum(orders)::int as orders, sum(paid)::bigint as paid_cents, sum(refunds)::bigint as refunds_cents, sum(refund_count)::int as refunds,
             count(distinct payer)::int as payers, sum(new_payer)::int as new_payers
      from f group by day, k
    ),
    r as (select g.day::text as day, g.k as key, ${SPLIT_NAME[split]} as name, g.orders, g.paid_cents, g.refunds_cents, g.refunds, g.payers, g.new_payers from g)`;
}

const figuresOf = (r: Record<string, unknown>): DailyFigures => ({
  orders: num(r.orders),
  paid_cents: num(r.paid_cents),
  refunds_cents: num(r.refunds_cents),
  refunds: num(r.refunds),
  payers: num(r.payers),
  new_payers: num(r.new_payers),
});

/**
 * Every day (× split key) row of a range. They are few (days × keys), so the service sorts,
 * pages and adds them up itself: one statement, and totals that are the sum of the rows by construction.
 */
export async function dailyFacts(db: Db, from: string, to: string, split: Split, filters: OrderFilters): Promise<DailyRowRaw[]> {
  const rows = await sql<Record<string, unknown>>`${dailyCte(from, to, split, filters)} select * from r`.execute(db);
  return rows.rows.map((r) => ({ day: String(r.day), key: (r.key as string | null) ?? null, name: (r.name as string | null) ?? null, ...figuresOf(r) }));
}

/** Filters of the cohort triangle: by the buyer (site, country, acquired through an ad) and the buyer's first order (drama, product). */
export interface CohortFilters {
  siteId?: number;
  dramaId?: number;
  productId?: number;
  country?: string;
  attributed?: boolean;
}

/**
 * The cohort money of acquisition days `from`…`to`: new payers per day, and per (day, age ≤ 30)
 * what the day's buyers paid on day+age minus what was refunded to them on day+age (USD cents).
 */
export async function cohortFacts(db: Db, from: string, to: string, f: CohortFilters, maxAge: number) {
  const parts: RawBuilder<unknown>[] = [sql`b.acquisition_day >= ${from}`, sql`b.acquisition_day <= ${to}`];
  if (f.siteId !== undefined) parts.push(sql`b.site_id = ${f.siteId}`);
  if (f.country) parts.push(sql`b.country = ${f.country}`);
  if (f.attributed !== undefined) parts.push(f.attributed ? sql`b.attribution_source is not null` : sql`b.attribution_source is null`);
  if (f.dramaId !== undefined) parts.push(sql`fo.drama_id = ${f.dramaId}`);
  if (f.productId !== undefined) parts.push(sql`fo.product_id = ${f.productId}`);
  const firstOrder = f.dramaId !== undefined || f.productId !== undefined ? sql`join orders fo on fo.site_id = b.site_id and fo.order_no = b.first_order_no` : sql``;
  const buyers = sql`b as (select b.id, b.acquisition_day as d from order_buyers b ${firstOrder} where ${sql.join(parts, sql` and `)})`;
  const [sizes, money] = await Promise.all([
    sql<{ day: string; n: number }>`with ${buyers} select d::text as day, count(*)::int as n from b group by d`.execute(db),
    sql<{ day: string; age: number; cents: string | number }>`
      with ${buyers},
      m as (
        select b.d, greatest(o.paid_day - b.d, 0) as age, coalesce(o.amount_usd_cents, 0) as cents
        from b join orders o on o.buyer_id = b.id where o.paid_day <= b.d + ${maxAge}::int
        union all
        select b.d, greatest(r.refund_day - b.d, 0), -coalesce(r.amount_usd_cents, 0)
        from b join orders o on o.buyer_id = b.id join order_refunds r on r.order_id = o.id where r.refund_day <= b.d + ${maxAge}::int
      )
      select d::text as day, age::int as age, sum(cents)::bigint as cents from m group by d, age`.execute(db),
  ]);
  return {
    sizes: new Map(sizes.rows.map((r) => [String(r.day), num(r.n)])),
    money: money.rows.map((r) => ({ day: String(r.day), age: num(r.age), cents: num(r.cents) })),
  };
}

/** Ad spend per report day (USD cents) of the ads of a site (through their drama or product), drama or product. */
export async function spendByDay(db: Db, from: string, to: string, f: { siteId?: number; dramaId?: number; productId?: number }): Promise<Map<string, number>> {
  const parts: RawBuilder<unknown>[] = [sql`s.day >= ${from}`, sql`s.day <= ${to}`];
  if (f.dramaId !== undefined) parts.push(sql`s.drama_id = ${f.dramaId}`);
  if (f.productId !== undefined) parts.push(sql`s.product_id = ${f.productId}`);
  if (f.siteId !== undefined) {
    parts.push(sql`(s.drama_id in (select id from dramas where site_id = ${f.siteId}) or s.product_id in (select id from products where site_id = ${f.siteId}))`);
  }
  // campaign_stats_daily holds the same spend per campaign and day (fewer rows than per ad).
  const rows = await sql<{ day: string; cents: string | number }>`
    select s.day::text as day, sum(s.spend_usd_cents)::bigint as cents from campaign_stats_daily s where ${sql.join(parts, sql` and `)} group by s.day`.execute(db);
  return new Map(rows.rows.map((r) => [String(r.day), num(r.cents)]));
}

// ---------------------------------------------------------------------------------------------
// Filter choices

export async function orderOptions(db: Db, kind: 'site' | 'drama' | 'product' | 'campaign' | 'ad' | 'country', keyword: string | undefined) {
  const like = keyword ? `%${escapeLike(keyword)}%` : null;
  const limit = 50;
  switch (kind) {
    case 'site': {
      let q = db.selectFrom('sites').select(['id', 'name', 'domain']).where('deleted_at', 'is', null);
      if (like) q = q.where((eb) => eb.or([eb('name', 'ilike', like), eb('domain', 'ilike', like)]));
      return (await q.orderBy('name').orderBy('id').limit(limit).execute()).map((r) => ({ value: String(r.id), label: r.name, hint: r.domain }));
    }
    case 'drama':
    case 'product': {
      const table = sql.table(kind === 'drama' ? 'dramas' : 'products');
      const match = like ? sql`and (x.name ilike ${like} or x.external_id = ${keyword})` : sql``;
      const rows = await sql<{ id: number; name: string; site: string }>`
        select x.id, x.name, s.name as site from ${table} x join sites s on s.id = x.site_id
        where x.deleted_at is null ${match} order by x.name, x.id limit ${limit}`.execute(db);
      return rows.rows.map((r) => ({ value: String(r.id), label: r.name, hint: r.site }));
    }
    case 'campaign':
    case 'ad': {
      const table = sql.table(kind === 'campaign' ? 'ad_campaigns' : 'ads');
      const match = like ? sql`where x.name ilike ${like} or x.platform_id = ${keyword}` : sql``;
      const rows = await sql<{ platform_id: string; name: string }>`select x.platform_id, x.name from ${table} x ${match} order by x.name, x.id limit ${limit}`.execute(db);
      return rows.rows.map((r) => ({ value: r.platform_id, label: r.name, hint: r.platform_id }));
    }
    case 'country': {
      // Buyers are far fewer than orders; a buyer's country is the one of their first order.
      const rows = await sql<{ country: string }>`select distinct country from order_buyers where country is not null order by country limit 300`.execute(db);
      return rows.rows.filter((r) => !keyword || r.country.includes(keyword.toUpperCase())).map((r) => ({ value: r.country, label: r.country, hint: null }));
    }
  }
}
