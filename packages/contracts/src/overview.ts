import { z } from 'zod';
import { cronJobSchema } from './jobs.ts';

/**
 * The two landing pages: the super admin's overview (/admin/index) and everyone else's home
 * (/index): counts of what the system holds, and the delivery dashboard below.
 */

const count = z.number().int().nonnegative();

/** Personal accounts by token health (PRODUCT.md "Domain facts": expiring = within a week). */
export const tokenHealthCountsSchema = z.object({ total: count, valid: count, expiring: count, invalid: count });
export type TokenHealthCounts = z.infer<typeof tokenHealthCountsSchema>;

/** Ad accounts: all, active on the platform (account_status 1), hosted (托管). */
export const adAccountCountsSchema = z.object({ total: count, active: count, hosted: count });

/** Materials by platform (dj 短剧, ec 电商). */
export const materialCountsSchema = z.object({ total: count, dj: count, ec: count });

/** /overview/admin: company-wide counts and every job with its last run, for the super admin. */
export const adminOverviewSchema = z.object({
  users: z.object({ total: count, enabled: count, disabled: count, managers: count, leaders: count }),
  departments: count,
  roles: count,
  personal_accounts: tokenHealthCountsSchema,
  ad_accounts: adAccountCountsSchema,
  pages: count,
  pixels: count,
  sites: count,
  materials: materialCountsSchema,
  jobs: z.array(cronJobSchema),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

/** /overview/home: what the caller sees in their own data scope (the same rules as each list screen). */
export const homeOverviewSchema = z.object({
  personal_accounts: tokenHealthCountsSchema,
  ad_accounts: adAccountCountsSchema,
  pages: count,
  pixels: count,
  materials: materialCountsSchema,
});
export type HomeOverview = z.infer<typeof homeOverviewSchema>;

// ---------------------------------------------------------------------------------------------
// The delivery dashboard of both landing pages (issue 9): /index in the caller's data scope,
// /admin/index company-wide. Every figure is a registry metric of the report rows it summarizes
// (the report by dimension for days and dramas, the campaign report for campaigns), so it equals
// what 广告数据 and the analysis screens show for the same range and scope.

/** The range of the top lists. */
export const DASHBOARD_TOP_RANGES = ['today', 'yesterday', 'last7', 'last30'] as const;
/** What the top lists rank by. */
export const DASHBOARD_TOP_BY = ['spend', 'revenue', 'roi'] as const;

export const dashboardBodySchema = z.object({
  top_range: z.enum(DASHBOARD_TOP_RANGES).default('last7'),
  top_by: z.enum(DASHBOARD_TOP_BY).default('spend'),
});
export type DashboardBody = z.input<typeof dashboardBodySchema>;

/** One report day: spend, attributed revenue (USD), ROI and D0 ROI (percent), orders; organic orders apart. */
export const dashboardDaySchema = z.object({
  day: z.string(),
  spend: z.number(),
  revenue: z.number(),
  roi: z.number().nullable(),
  /** Null with `d0_matured` false while the day has not ended (shown as not matured). */
  d0_roi: z.number().nullable(),
  d0_matured: z.boolean(),
  orders: count,
  new_payers: count,
  /** Orders without an ad (company-wide views only; null otherwise). */
  organic_revenue: z.number().nullable(),
  organic_orders: count.nullable(),
});
export type DashboardDay = z.infer<typeof dashboardDaySchema>;

export const dashboardTopSchema = z.object({
  id: z.number().int().nullable(),
  name: z.string(),
  /** The drama's site, the campaign's ad account. */
  detail: z.string().nullable(),
  spend: z.number(),
  revenue: z.number(),
  roi: z.number().nullable(),
  d0_roi: z.number().nullable(),
});
export type DashboardTop = z.infer<typeof dashboardTopSchema>;

export const DASHBOARD_ALERT_KINDS = ['token_expiring', 'token_invalid', 'ad_account_disabled', 'sync_failed', 'job_failed', 'site_silent', 'site_failing'] as const;
export const dashboardAlertSchema = z.object({
  kind: z.enum(DASHBOARD_ALERT_KINDS),
  /** The personal account, ad account or site; null for a scheduled task. */
  id: z.number().int().nullable(),
  name: z.string(),
  /** Why: the platform's or the run's message, in the caller's language. */
  detail: z.string().nullable(),
  /** When: the token's expiry, the failed run's end, the site's last order. */
  at: z.string().nullable(),
  /** The ad account's account_status. */
  status: z.number().int().nullable(),
});
export type DashboardAlert = z.infer<typeof dashboardAlertSchema>;

export const dashboardSchema = z.object({
  today: z.string(),
  yesterday: z.string(),
  report_timezone: z.string(),
  /** Company-wide figures (organic orders shown); false: the caller's data scope. */
  company: z.boolean(),
  /** The oldest last insights sync of the ad accounts in view (ISO). */
  as_of: z.string().nullable(),
  /** Changes still being rolled up (minutes at most). */
  pending: z.boolean(),
  days: z.object({ today: dashboardDaySchema, yesterday: dashboardDaySchema }),
  /** The last 30 report days, oldest first, today included. */
  trend: z.array(dashboardDaySchema),
  top_range: z.object({ date_from: z.string(), date_to: z.string() }),
  top_dramas: z.array(dashboardTopSchema),
  top_products: z.array(dashboardTopSchema),
  top_campaigns: z.array(dashboardTopSchema),
  alerts: z.array(dashboardAlertSchema),
  /** How many of each kind exist (the list shows the first few of each). */
  alert_counts: z.record(z.enum(DASHBOARD_ALERT_KINDS), count),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
