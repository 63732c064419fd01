import { z } from 'zod';
import { exportColumnsSchema, flagInput, idSchema, pageBodySchema, pageResultSchema, sortOrderSchema } from './envelope.ts';
import { daySchema, text } from './text.ts';

// The order screens of issue 9 (/admin/order/list 订单列表, /admin/order/daily 订单分析) over the
// order tables of docs/orders-design.md. Money: amounts in the order's currency as decimal
// strings in major units (API.md "Orders"), report figures in USD (numbers, 2 decimals, at each
// payment's or refund's day rate). Days are REPORT_TIMEZONE days.

export const orderStatusSchema = z.enum(['paid', 'partially_refunded', 'refunded']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;
export const orderAttributionSourceSchema = z.enum(['landing_url', 'payload']);

/** A platform id (campaign, ad set, ad) as orders carry it. */
const platformIdSchema = text().trim().regex(/^\d{1,30}$/, { message: 'digits' });
/** ISO 3166-1 alpha-2, upper case. */
const countrySchema = text().trim().regex(/^[A-Za-z]{2}$/, { message: 'country' }).transform((c) => c.toUpperCase());
/** USD in major units, for the amount range filter. */
const usdAmountSchema = z.number().min(0).max(1e9);

/** Filters the order list, its export and the analysis share. */
const orderFilterShape = {
  site_id: idSchema.optional(),
  drama_id: idSchema.optional(),
  product_id: idSchema.optional(),
  country: countrySchema.optional(),
  /** true: orders of buyers acquired through an ad; false: organic. */
  attributed: flagInput.optional(),
};

export const ORDER_SORT_FIELDS = ['paid_at', 'order_no', 'paid_usd', 'usd_amount', 'country', 'status'] as const;
/** The order table's columns an export can hold (keyed as the web table's, in its order). */
export const ORDER_EXPORT_COLUMNS = ['order_no', 'paid_at', 'site', 'amount', 'refunded', 'paid_usd', 'usd_amount', 'status', 'buyer', 'country', 'content', 'attribution', 'source'] as const;

export const listOrdersBodySchema = pageBodySchema.extend({
  sort_field: z.enum(ORDER_SORT_FIELDS).optional(),
  /** Payment days (REPORT_TIMEZONE), inclusive; at most 400 days apart. */
  paid_from: daySchema.optional(),
  paid_to: daySchema.optional(),
  ...orderFilterShape,
  order_no: text().trim().min(1).max(64).optional(),
  app_user_id: text().trim().min(1).max(64).optional(),
  status: orderStatusSchema.optional(),
  /** true: the buyer's first paid order on the site; false: a returning buyer's. */
  new_payer: flagInput.optional(),
  campaign_id: platformIdSchema.optional(),
  ad_id: platformIdSchema.optional(),
  /** The order's paid amount in USD, inclusive bounds. */
  amount_min: usdAmountSchema.optional(),
  amount_max: usdAmountSchema.optional(),
});
export type ListOrdersBody = z.infer<typeof listOrdersBodySchema>;
export const exportOrdersBodySchema = listOrdersBodySchema.extend({ columns: exportColumnsSchema(ORDER_EXPORT_COLUMNS) });
export type ExportOrdersBody = z.infer<typeof exportOrdersBodySchema>;

const ref = z.object({ id: z.number().int(), name: z.string() });
const nullableIso = z.string().nullable();

export const orderRowSchema = z.object({
  id: z.number().int(),
  site_id: z.number().int(),
  site_name: z.string(),
  order_no: z.string(),
  status: orderStatusSchema,
  /** Decimal strings in major units of `currency`. */
  amount: z.string(),
  refunded_amount: z.string(),
  currency: z.string(),
  /** USD paid (before refunds); null when the currency has no rate. */
  paid_usd: z.number().nullable(),
  refunded_usd: z.number(),
  /** USD after refunds (API.md); null when the currency has no rate. */
  usd_amount: z.number().nullable(),
  paid_at: z.string(),
  /** REPORT_TIMEZONE day of paid_at. */
  paid_day: z.string(),
  refunded_at: nullableIso,
  app_user_id: z.string(),
  is_new_payer: z.boolean(),
  country: z.string().nullable(),
  /** Platform ids of the buyer's acquiring ad (null: organic). */
  campaign_id: z.string().nullable(),
  adset_id: z.string().nullable(),
  ad_id: z.string().nullable(),
  /** Our mirror of that campaign and ad, when synced. */
  campaign: ref.nullable(),
  ad: ref.nullable(),
  attribution_source: orderAttributionSourceSchema.nullable(),
  /** Our drama (when the catalog has the site's id), the site's drama id, the episode. */
  drama_id: z.number().int().nullable(),
  drama_external_id: z.string().nullable(),
  drama_name: z.string().nullable(),
  episode: z.number().int().nullable(),
  product_id: z.number().int().nullable(),
  product_external_id: z.string().nullable(),
  product_name: z.string().nullable(),
  quantity: z.number().int().nullable(),
  source: z.enum(['webhook', 'import']),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

/** One currency's part of the list totals (amounts in major units of it). */
export const orderCurrencyTotalSchema = z.object({
  currency: z.string(),
  orders: z.number().int(),
  amount: z.string(),
  refunded_amount: z.string(),
  net_amount: z.string(),
});

/** The totals row: over every matching order (not only the page), so equal to the sum of the rows. */
export const orderSummarySchema = z.object({
  orders: z.number().int(),
  new_payers: z.number().int(),
  paid_usd: z.number(),
  refunded_usd: z.number(),
  usd_amount: z.number(),
  /** Orders whose currency has no rate: left out of the USD totals. */
  without_rate: z.number().int(),
  /** One entry per currency, largest first. */
  currencies: z.array(orderCurrencyTotalSchema),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderListResultSchema = pageResultSchema(orderRowSchema).extend({ summary: orderSummarySchema, report_timezone: z.string() });
export type OrderListResult = z.infer<typeof orderListResultSchema>;

const objectRef = z.object({ id: z.number().int(), name: z.string(), platform_id: z.string() });

export const orderDetailSchema = z.object({
  order: orderRowSchema,
  /** Major units of the order currency (amount ÷ quantity). */
  unit_price: z.string().nullable(),
  landing_url: z.string().nullable(),
  user_registered_at: nullableIso,
  attribution: z.object({
    /** How the buyer was attributed: the landing URL read with the site's link template, the ids the site sent, or none (organic). */
    source: orderAttributionSourceSchema.nullable(),
    /** The landing URL the attribution was read from (the buyer's attributed order's). */
    landing_url: z.string().nullable(),
    /** paid_at of the buyer's order the attribution came from. */
    attributed_paid_at: nullableIso,
    link_template: z.string(),
    /** What the landing URL says, read with the link template now (null: it does not match). */
    parsed: z
      .object({
        campaign_id: z.string().nullable(),
        adset_id: z.string().nullable(),
        ad_id: z.string().nullable(),
        drama_id: z.string().nullable(),
        episode: z.number().int().nullable(),
        product_id: z.string().nullable(),
      })
      .nullable(),
    campaign: objectRef.nullable(),
    adset: objectRef.nullable(),
    ad: objectRef.nullable(),
    ad_account: objectRef.nullable(),
    owner: ref.nullable(),
  }),
  buyer: z.object({
    app_user_id: z.string(),
    registered_at: nullableIso,
    country: z.string().nullable(),
    /** The buyer's first paid order on the site: the acquisition. */
    first_order: z.object({ id: z.number().int().nullable(), order_no: z.string(), paid_at: z.string() }),
    acquisition_day: z.string(),
    orders: z.number().int(),
    paid_usd: z.number(),
    usd_amount: z.number(),
  }),
  refunds: z.array(z.object({ id: z.number().int(), amount: z.string(), currency: z.string(), usd: z.number().nullable(), refunded_at: z.string(), refund_day: z.string() })),
  /** Every event received for the order, as received (known fields only), oldest first. */
  events: z.array(z.object({ id: z.number().int(), event: z.enum(['order.paid', 'order.refunded']), source: z.enum(['webhook', 'import']), received_at: z.string(), delivery_id: z.number().int().nullable(), payload: z.unknown() })),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

// ---------------------------------------------------------------------------------------------
// 订单分析: figures per day, optionally split, and the cohort triangle.

export const orderSplitSchema = z.enum(['none', 'site', 'drama', 'product', 'country']);
export type OrderSplit = z.infer<typeof orderSplitSchema>;

export const ORDER_DAILY_FIELDS = ['orders', 'paid_usd', 'refunds_usd', 'revenue_usd', 'payers', 'new_payers', 'arppu'] as const;
export type OrderDailyField = (typeof ORDER_DAILY_FIELDS)[number];
export const ORDER_DAILY_EXPORT_COLUMNS = ['day', 'key', ...ORDER_DAILY_FIELDS] as const;

export const orderDailyBodySchema = pageBodySchema.extend({
  /** Report days (REPORT_TIMEZONE), inclusive; at most 400 days apart. */
  date_from: daySchema,
  date_to: daySchema,
  split: orderSplitSchema.optional(),
  ...orderFilterShape,
  sort_field: z.enum(['day', 'key', ...ORDER_DAILY_FIELDS]).optional(),
  sort_order: sortOrderSchema.optional(),
});
export type OrderDailyBody = z.infer<typeof orderDailyBodySchema>;
export const exportOrderDailyBodySchema = orderDailyBodySchema.extend({ columns: exportColumnsSchema(ORDER_DAILY_EXPORT_COLUMNS) });
export type ExportOrderDailyBody = z.infer<typeof exportOrderDailyBodySchema>;

/** The figures of a day (or a day and split key, or a total). */
export const orderDailyFiguresSchema = z.object({
  /** Orders paid. */
  orders: z.number().int(),
  /** USD paid by those orders. */
  paid_usd: z.number(),
  /** Refunds made that day (of orders paid any day), USD, and how many. */
  refunds_usd: z.number(),
  refunds: z.number().int(),
  /** paid − refunds: the registry's revenue (by payment and refund day). */
  revenue_usd: z.number(),
  /** Distinct buyers paying that day (added up over days and keys, as the registry's payers). */
  payers: z.number().int(),
  /** Buyers whose first paid order that was. */
  new_payers: z.number().int(),
  /** revenue ÷ payers; null when there are none. */
  arppu: z.number().nullable(),
});
export type OrderDailyFigures = z.infer<typeof orderDailyFiguresSchema>;

/** The split key of a row: a site, drama or product (id), a country (code), or none of them (null id and code). */
export const orderSplitKeySchema = z.object({ id: z.number().int().nullable(), code: z.string().nullable(), name: z.string() });

export const orderDailyRowSchema = orderDailyFiguresSchema.extend({ day: z.string(), key: orderSplitKeySchema.nullable() });
export type OrderDailyRow = z.infer<typeof orderDailyRowSchema>;

export const orderDailyResultSchema = pageResultSchema(orderDailyRowSchema).extend({
  /** Over every matching row: equal to the sum of the rows. */
  totals: orderDailyFiguresSchema,
  /** Every day of the range (all keys added up), for the chart. */
  chart: z.array(orderDailyFiguresSchema.extend({ day: z.string() })),
  /** With a split: revenue per day of the largest keys (the rest as one series, key null). */
  split_series: z.array(z.object({ key: orderSplitKeySchema.nullable(), revenue_usd: z.array(z.number()) })),
  report_timezone: z.string(),
});
export type OrderDailyResult = z.infer<typeof orderDailyResultSchema>;

/** Ages of the cohort triangle: D0 (the acquisition day) to D30. */
export const COHORT_MAX_AGE = 30;

export const orderCohortBodySchema = z.object({
  /** Acquisition days (REPORT_TIMEZONE), inclusive; at most 180 days apart. */
  date_from: daySchema,
  date_to: daySchema,
  ...orderFilterShape,
  /** revenue: every buyer of the filters; roi: buyers acquired through an ad, beside the day's ad spend. */
  metric: z.enum(['revenue', 'roi']).optional(),
});
export type OrderCohortBody = z.infer<typeof orderCohortBodySchema>;
export const exportOrderCohortBodySchema = orderCohortBodySchema.extend({
  /** The ages the screen shows (default D0…D30). */
  ages: z.array(z.number().int().min(0).max(COHORT_MAX_AGE)).min(1).max(COHORT_MAX_AGE + 1).optional(),
});
export type ExportOrderCohortBody = z.infer<typeof exportOrderCohortBodySchema>;

export const orderCohortRowSchema = z.object({
  /** The acquisition day. */
  day: z.string(),
  new_payers: z.number().int(),
  /** Ad spend of the day (USD) for the filters; null when the spend cannot be told apart like the filters (country of a buyer…) or in revenue mode. */
  spend_usd: z.number().nullable(),
  /** Index n = Dn: what the cohort paid up to the end of day+n minus its refunds by then (USD); null = not matured (day+n has not ended). */
  revenue_usd: z.array(z.number().nullable()),
});
export type OrderCohortRow = z.infer<typeof orderCohortRowSchema>;

export const orderCohortResultSchema = z.object({
  metric: z.enum(['revenue', 'roi']),
  /** Today's report day: Dn of day d is matured once d + n < today. */
  today: z.string(),
  rows: z.array(orderCohortRowSchema),
  totals: z.object({
    new_payers: z.number().int(),
    /** Dn over the days matured at n (the sum of the column's numbers); null when none is. */
    revenue_usd: z.array(z.number().nullable()),
    /** The spend of those same days (ROI mode), per age. */
    spend_usd: z.array(z.number().nullable()),
  }),
  /** ROI mode: whether spend can be split like the filters (false: no ROI, the reason is the filter). */
  spend_available: z.boolean(),
  report_timezone: z.string(),
});
export type OrderCohortResult = z.infer<typeof orderCohortResultSchema>;

// ---------------------------------------------------------------------------------------------
// Filter pickers of the order screens (the super admin holds no /auth paths to read the catalog).

export const orderOptionKindSchema = z.enum(['site', 'drama', 'product', 'campaign', 'ad', 'country']);
export type OrderOptionKind = z.infer<typeof orderOptionKindSchema>;
export const orderOptionsBodySchema = z.object({ kind: orderOptionKindSchema, keyword: text().trim().max(100).optional() });
export const orderOptionSchema = z.object({
  /** An id (site, drama, product), a platform id (campaign, ad) or a country code. */
  value: z.string(),
  label: z.string(),
  /** What tells same-named entries apart (the site of a drama, the platform id of a campaign). */
  hint: z.string().nullable(),
});
export type OrderOption = z.infer<typeof orderOptionSchema>;
export const orderOptionsResultSchema = z.array(orderOptionSchema);

/** The order screens (SPEC.md). */
export const ORDER_LIST_PATH = '/admin/order/list';
export const ORDER_DAILY_PATH = '/admin/order/daily';
