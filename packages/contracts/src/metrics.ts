/**
 * The metric registry (PRODUCT.md "Metrics", docs/ad-data-design.md §6): every figure a report,
 * totals row, export, chart or rule shows is defined here once, so it means the same everywhere.
 *
 * - A `sum` metric is the sum of one fact column of `ad_stats_daily` (and its rollups); money
 *   columns are USD cents, shown in dollars (`divisor` 100).
 * - A `ratio` metric is computed from the sums of two other metrics, never averaged from rows:
 *   CTR of a total is total clicks ÷ total impressions. A zero denominator gives `null` ("-").
 *
 * The orders issue adds revenue, ROI, cohort ROI (D0…D30), new payers, CPA and ARPPU here, with
 * `source: 'orders'`; screens and exports pick them up from the registry without changes.
 */

/** How a value is shown: `usd` with 2 decimals, `percent` as 1.23 %, `ratio` as 1.23, `count` as 1,234. */
export type MetricUnit = 'usd' | 'count' | 'percent' | 'ratio' | 'seconds';

/** Where the facts come from: the platform's insights, or the company's own orders. */
export type MetricSource = 'insights' | 'orders';

/** The summable fact columns of ad_stats_daily (USD money in cents). */
export const FACT_COLUMNS = [
  'spend_usd_cents',
  'impressions',
  'clicks',
  'link_clicks',
  'landing_page_views',
  'purchases',
  'purchase_value_usd_cents',
  'add_to_cart',
  'initiate_checkout',
  'video_plays',
  'video_p25',
  'video_p50',
  'video_p75',
  'video_p95',
  'video_p100',
  'thruplays',
  'video_watch_ms',
] as const;
export type InsightColumn = (typeof FACT_COLUMNS)[number];

/** The cohort ages of cohort ROI, in days after the acquisition day (D0 = the day itself). */
export const COHORT_DAYS = [0, 1, 3, 7, 14, 30] as const;
export type CohortDay = (typeof COHORT_DAYS)[number];

/**
 * The order facts of a report row (issue 9, table ad_order_daily joined by ad and day), USD cents:
 * revenue of the payment days (paid minus refunded that day), payers (each day's distinct payers,
 * added up over days), new payers (buyers acquired), and per cohort age N the revenue of the
 * cohorts whose day+N has ended (`cohort_dN_usd_cents`) beside the spend of those same days
 * (`matured_spend_dN_usd_cents`), so Dn ROI never mixes matured and unfinished days; the D0
 * revenue of the days matured at D1, D3 and D7 (`matured_d0_at_dN_usd_cents`) for the growth multipliers.
 */
export const ORDER_FACT_COLUMNS = [
  'revenue_usd_cents',
  'payers',
  'new_payers',
  'cohort_d0_usd_cents',
  'cohort_d1_usd_cents',
  'cohort_d3_usd_cents',
  'cohort_d7_usd_cents',
  'cohort_d14_usd_cents',
  'cohort_d30_usd_cents',
  'matured_spend_d0_usd_cents',
  'matured_spend_d1_usd_cents',
  'matured_spend_d3_usd_cents',
  'matured_spend_d7_usd_cents',
  'matured_spend_d14_usd_cents',
  'matured_spend_d30_usd_cents',
  'matured_d0_at_d1_usd_cents',
  'matured_d0_at_d3_usd_cents',
  'matured_d0_at_d7_usd_cents',
] as const;
export type OrderFactColumn = (typeof ORDER_FACT_COLUMNS)[number];

/** Every summed column of a report row: the insights facts, then the order facts. */
export const REPORT_COLUMNS = [...FACT_COLUMNS, ...ORDER_FACT_COLUMNS] as const;
export type FactColumn = InsightColumn | OrderFactColumn;

interface MetricBase {
  title: { zh: string; en: string };
  /** One sentence for the column's tooltip. */
  help: { zh: string; en: string };
  unit: MetricUnit;
  decimals: number;
  /** Which direction is good, for the colour of a change against the previous period. */
  better: 'up' | 'down' | null;
  source: MetricSource;
  /** Also reported per hour (the platform gives spend, impressions and clicks hourly only). */
  hourly: boolean;
  /** Shown by default in report tables (the rest are in the column chooser). */
  defaultVisible: boolean;
}

export interface SumMetric extends MetricBase {
  kind: 'sum';
  column: FactColumn;
  /** Stored units per shown unit (cents → dollars: 100). */
  divisor: number;
}

export interface RatioMetric extends MetricBase {
  kind: 'ratio';
  numerator: SumMetricKey;
  denominator: SumMetricKey;
  /** Multiplies the quotient: 100 for a percentage, 1000 for a cost per thousand. */
  scale: number;
}

/**
 * Cohort ROI at age `day`: the Dn revenue of the cohorts whose day+N has ended ÷ the spend of
 * those days. For a range whose first day+N has not ended yet nothing is matured: the value is
 * `null` and the report lists the metric in `not_matured` (shown as not matured, never a number).
 */
export interface CohortMetric extends MetricBase {
  kind: 'cohort';
  day: CohortDay;
  /** Cohort revenue at age `day`, over the matured days. */
  revenue: OrderFactColumn;
  /** The base over the same days: their spend (ROI), or their D0 revenue (growth multiplier). */
  spend: OrderFactColumn;
  scale: number;
}

export type MetricDef = SumMetric | RatioMetric | CohortMetric;

const t = (zh: string, en: string) => ({ zh, en });

const sumMetrics = {
  spend: { kind: 'sum', column: 'spend_usd_cents', divisor: 100, title: t('花费', 'Spend'), help: t('广告花费（美元，按当日汇率换算）', 'Amount spent, in USD at the day’s exchange rate'), unit: 'usd', decimals: 2, better: null, source: 'insights', hourly: true, defaultVisible: true },
  impressions: { kind: 'sum', column: 'impressions', divisor: 1, title: t('展示', 'Impressions'), help: t('广告展示次数', 'Times the ads were shown'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: true, defaultVisible: true },
  clicks: { kind: 'sum', column: 'clicks', divisor: 1, title: t('点击', 'Clicks'), help: t('所有点击', 'All clicks'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: true, defaultVisible: true },
  link_clicks: { kind: 'sum', column: 'link_clicks', divisor: 1, title: t('链接点击', 'Link clicks'), help: t('指向落地页的点击', 'Clicks on the ad’s link'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  landing_page_views: { kind: 'sum', column: 'landing_page_views', divisor: 1, title: t('落地页浏览', 'Landing page views'), help: t('落地页加载完成的次数', 'Times the landing page loaded after a click'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: true },
  purchases: { kind: 'sum', column: 'purchases', divisor: 1, title: t('购买（像素）', 'Purchases (pixel)'), help: t('像素回传的购买次数（只计一种事件类型）', 'Purchases reported by the pixel (one action type only)'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: true },
  purchase_value: { kind: 'sum', column: 'purchase_value_usd_cents', divisor: 100, title: t('购买金额（像素）', 'Purchase value (pixel)'), help: t('像素回传的购买金额（美元）', 'Purchase value reported by the pixel, in USD'), unit: 'usd', decimals: 2, better: 'up', source: 'insights', hourly: false, defaultVisible: true },
  add_to_cart: { kind: 'sum', column: 'add_to_cart', divisor: 1, title: t('加购', 'Adds to cart'), help: t('像素回传的加入购物车次数', 'Adds to cart reported by the pixel'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  initiate_checkout: { kind: 'sum', column: 'initiate_checkout', divisor: 1, title: t('发起结账', 'Checkouts initiated'), help: t('像素回传的发起结账次数', 'Checkouts initiated, reported by the pixel'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  video_plays: { kind: 'sum', column: 'video_plays', divisor: 1, title: t('视频播放', 'Video plays'), help: t('视频开始播放的次数', 'Times the video started playing'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  video_p25: { kind: 'sum', column: 'video_p25', divisor: 1, title: t('播放 25%', 'Watched 25%'), help: t('播放到 25% 的次数', 'Plays that reached 25%'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  video_p50: { kind: 'sum', column: 'video_p50', divisor: 1, title: t('播放 50%', 'Watched 50%'), help: t('播放到 50% 的次数', 'Plays that reached 50%'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  video_p75: { kind: 'sum', column: 'video_p75', divisor: 1, title: t('播放 75%', 'Watched 75%'), help: t('播放到 75% 的次数', 'Plays that reached 75%'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  video_p95: { kind: 'sum', column: 'video_p95', divisor: 1, title: t('播放 95%', 'Watched 95%'), help: t('播放到 95% 的次数', 'Plays that reached 95%'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  video_p100: { kind: 'sum', column: 'video_p100', divisor: 1, title: t('完播', 'Watched 100%'), help: t('播放完成的次数', 'Plays that reached the end'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  thruplays: { kind: 'sum', column: 'thruplays', divisor: 1, title: t('ThruPlay', 'ThruPlays'), help: t('播放完成或至少 15 秒的次数', 'Plays to the end or for at least 15 seconds'), unit: 'count', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  video_watch_time: { kind: 'sum', column: 'video_watch_ms', divisor: 1000, title: t('观看时长（秒）', 'Watch time (s)'), help: t('所有播放的观看时长合计', 'Total watch time of all plays'), unit: 'seconds', decimals: 0, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  revenue: { kind: 'sum', column: 'revenue_usd_cents', divisor: 100, title: t('收入', 'Revenue'), help: t('归因到广告的订单金额减退款（美元，按付款日汇率），按付款日计', 'Attributed order revenue minus refunds, in USD at each payment day’s rate, by payment day'), unit: 'usd', decimals: 2, better: 'up', source: 'orders', hourly: false, defaultVisible: true },
  payers: { kind: 'sum', column: 'payers', divisor: 1, title: t('付费人数', 'Payers'), help: t('每天付费的用户数（多天相加）', 'Users who paid each day, added up over the days'), unit: 'count', decimals: 0, better: 'up', source: 'orders', hourly: false, defaultVisible: false },
  new_payers: { kind: 'sum', column: 'new_payers', divisor: 1, title: t('新付费人数', 'New payers'), help: t('当天由广告获得的首次付费用户', 'Buyers acquired by the ad that day (first paid order)'), unit: 'count', decimals: 0, better: 'up', source: 'orders', hourly: false, defaultVisible: true },
} as const satisfies Record<string, SumMetric>;

export type SumMetricKey = keyof typeof sumMetrics;

const ratioMetrics = {
  ctr: { kind: 'ratio', numerator: 'clicks', denominator: 'impressions', scale: 100, title: t('点击率', 'CTR'), help: t('点击 ÷ 展示', 'Clicks ÷ impressions'), unit: 'percent', decimals: 2, better: 'up', source: 'insights', hourly: true, defaultVisible: true },
  cpm: { kind: 'ratio', numerator: 'spend', denominator: 'impressions', scale: 1000, title: t('千次展示费用', 'CPM'), help: t('花费 ÷ 展示 × 1000', 'Spend ÷ impressions × 1000'), unit: 'usd', decimals: 2, better: 'down', source: 'insights', hourly: true, defaultVisible: true },
  cpc: { kind: 'ratio', numerator: 'spend', denominator: 'clicks', scale: 1, title: t('单次点击费用', 'CPC'), help: t('花费 ÷ 点击', 'Spend ÷ clicks'), unit: 'usd', decimals: 2, better: 'down', source: 'insights', hourly: true, defaultVisible: true },
  cvr: { kind: 'ratio', numerator: 'purchases', denominator: 'link_clicks', scale: 100, title: t('转化率（像素）', 'CVR (pixel)'), help: t('像素购买 ÷ 链接点击', 'Pixel purchases ÷ link clicks'), unit: 'percent', decimals: 2, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  cost_per_purchase: { kind: 'ratio', numerator: 'spend', denominator: 'purchases', scale: 1, title: t('单次购买成本（像素）', 'Cost per purchase (pixel)'), help: t('花费 ÷ 像素购买', 'Spend ÷ pixel purchases'), unit: 'usd', decimals: 2, better: 'down', source: 'insights', hourly: false, defaultVisible: false },
  pixel_roas: { kind: 'ratio', numerator: 'purchase_value', denominator: 'spend', scale: 1, title: t('ROAS（像素）', 'ROAS (pixel)'), help: t('像素购买金额 ÷ 花费', 'Pixel purchase value ÷ spend'), unit: 'ratio', decimals: 2, better: 'up', source: 'insights', hourly: false, defaultVisible: true },
  thruplay_rate: { kind: 'ratio', numerator: 'thruplays', denominator: 'video_plays', scale: 100, title: t('ThruPlay 率', 'ThruPlay rate'), help: t('ThruPlay ÷ 视频播放', 'ThruPlays ÷ video plays'), unit: 'percent', decimals: 2, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  avg_watch_time: { kind: 'ratio', numerator: 'video_watch_time', denominator: 'video_plays', scale: 1, title: t('平均观看时长（秒）', 'Avg. watch time (s)'), help: t('观看时长 ÷ 视频播放', 'Watch time ÷ video plays'), unit: 'seconds', decimals: 1, better: 'up', source: 'insights', hourly: false, defaultVisible: false },
  roi: { kind: 'ratio', numerator: 'revenue', denominator: 'spend', scale: 100, title: t('ROI', 'ROI'), help: t('区间内归因收入 ÷ 花费', 'Attributed revenue in the range ÷ spend'), unit: 'percent', decimals: 2, better: 'up', source: 'orders', hourly: false, defaultVisible: true },
  cpa: { kind: 'ratio', numerator: 'spend', denominator: 'new_payers', scale: 1, title: t('付费成本', 'CPA'), help: t('花费 ÷ 新付费人数', 'Spend ÷ new payers'), unit: 'usd', decimals: 2, better: 'down', source: 'orders', hourly: false, defaultVisible: true },
  arppu: { kind: 'ratio', numerator: 'revenue', denominator: 'payers', scale: 1, title: t('ARPPU', 'ARPPU'), help: t('收入 ÷ 付费人数', 'Revenue ÷ payers'), unit: 'usd', decimals: 2, better: 'up', source: 'orders', hourly: false, defaultVisible: false },
} as const satisfies Record<string, RatioMetric>;

const cohort = (day: CohortDay, title: { zh: string; en: string }, defaultVisible: boolean) =>
  ({
    kind: 'cohort',
    day,
    revenue: `cohort_d${day}_usd_cents`,
    spend: `matured_spend_d${day}_usd_cents`,
    scale: 100,
    title,
    help: t(`投放日获得的用户到第 ${day} 天结束的收入（减退款）÷ 当日花费；未满 ${day} 天的日期不计入`, `Revenue of the day's acquired buyers up to the end of day ${day} (minus refunds) ÷ that day's spend; days not ${day} days old yet are left out`),
    unit: 'percent',
    decimals: 2,
    better: 'up',
    source: 'orders',
    hourly: false,
    defaultVisible,
  }) as const satisfies CohortMetric;

const growth = (day: 1 | 3 | 7) =>
  ({
    kind: 'cohort',
    day,
    revenue: `cohort_d${day}_usd_cents`,
    spend: `matured_d0_at_d${day}_usd_cents`,
    scale: 1,
    title: t(`D${day}/D0 倍数`, `D${day}/D0 multiple`),
    help: t(`D${day} 收入 ÷ 首日收入（同一批已满 ${day} 天的投放日）`, `D${day} revenue ÷ D0 revenue of the same cohorts (days ${day} days old or more)`),
    unit: 'ratio',
    decimals: 2,
    better: 'up',
    source: 'orders',
    hourly: false,
    defaultVisible: false,
  }) as const satisfies CohortMetric;

const cohortMetrics = {
  d0_roi: cohort(0, t('首日 ROI', 'D0 ROI'), true),
  d1_roi: cohort(1, t('D1 ROI', 'D1 ROI'), true),
  d3_roi: cohort(3, t('D3 ROI', 'D3 ROI'), false),
  d7_roi: cohort(7, t('D7 ROI', 'D7 ROI'), true),
  d14_roi: cohort(14, t('D14 ROI', 'D14 ROI'), false),
  d30_roi: cohort(30, t('D30 ROI', 'D30 ROI'), false),
  d1_d0: growth(1),
  d3_d0: growth(3),
  d7_d0: growth(7),
} as const satisfies Record<string, CohortMetric>;

export const metrics = { ...sumMetrics, ...ratioMetrics, ...cohortMetrics } as const satisfies Record<string, MetricDef>;
export type MetricKey = keyof typeof metrics;
export const METRIC_KEYS = Object.keys(metrics) as MetricKey[];
export const SUM_METRIC_KEYS = Object.keys(sumMetrics) as SumMetricKey[];

export function isMetricKey(key: string): key is MetricKey {
  return Object.prototype.hasOwnProperty.call(metrics, key);
}

/** The sums a set of fact rows adds up to, by fact column (USD in cents). */
export type FactSums = Partial<Record<FactColumn, number>>;

/** A metric's value from the sums of its rows; null when a ratio's denominator is 0 (shown "-"). */
export function metricValue(key: MetricKey, sums: FactSums): number | null {
  const def: MetricDef = metrics[key];
  if (def.kind === 'sum') return (sums[def.column] ?? 0) / def.divisor;
  if (def.kind === 'cohort') {
    const spend = sums[def.spend] ?? 0;
    return spend === 0 ? null : ((sums[def.revenue] ?? 0) / spend) * def.scale;
  }
  const num = metricValue(def.numerator, sums);
  const den = metricValue(def.denominator, sums);
  if (num === null || den === null || den === 0) return null;
  return (num / den) * def.scale;
}

/** The fact columns a set of metrics needs (a ratio needs both of its sums). */
export function factColumnsOf(keys: readonly MetricKey[]): FactColumn[] {
  const out = new Set<FactColumn>();
  const add = (key: MetricKey) => {
    const def: MetricDef = metrics[key];
    if (def.kind === 'sum') out.add(def.column);
    else if (def.kind === 'cohort') {
      out.add(def.revenue);
      out.add(def.spend);
    } else {
      add(def.numerator);
      add(def.denominator);
    }
  };
  keys.forEach(add);
  return REPORT_COLUMNS.filter((c) => out.has(c));
}

/** `YYYY-MM-DD` plus n days. */
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The last cohort day whose day+N has ended, given today's report day: days up to it count in
 * Dn ROI (a Dn of a day whose day+N is today or later is not matured).
 */
export const lastMaturedDay = (n: CohortDay, today: string) => plusDays(today, -n - 1);

/** The cohort metrics with nothing matured in a range starting on `from` (null, shown as not matured). */
export function notMaturedMetrics(from: string, today: string): MetricKey[] {
  return METRIC_KEYS.filter((k) => {
    const def: MetricDef = metrics[k];
    return def.kind === 'cohort' && from > lastMaturedDay(def.day, today);
  });
}

/** Change against a previous period as a fraction (0.25 = +25 %); null when either side is missing or the base is 0. */
export function metricChange(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / Math.abs(previous);
}

/**
 * A metric's value as text, the same on screens and in exports: "-" for null, USD with 2
 * decimals, percentages with a % sign, thousands separators for counts.
 */
export function formatMetric(key: MetricKey, value: number | null, lang: 'zh' | 'en' = 'zh'): string {
  if (value === null || !Number.isFinite(value)) return '-';
  const def: MetricDef = metrics[key];
  const text = Math.abs(value).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US', { minimumFractionDigits: def.decimals, maximumFractionDigits: def.decimals });
  const sign = value < 0 && text.replace(/[0.,]/g, '') !== '' ? '-' : '';
  if (def.unit === 'usd') return `${sign}$${text}`;
  if (def.unit === 'percent') return `${sign}${text}%`;
  return sign + text;
}
