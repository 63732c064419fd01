import {
  adReportBodySchema,
  dimReportBodySchema,
  IS_ADMIN_SUPER,
  type Dashboard,
  type DashboardAlert,
  type DashboardDay,
  type DashboardTop,
  type DimReportRow,
  type dashboardBodySchema,
} from '@ads/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { visibleAdAccountIds } from '../../lib/scope.ts';
import { addDays, dayIn } from '../../lib/tz.ts';
import type { AdAccountService } from '../ad-accounts/ad-accounts.service.ts';
import type { AdReportService } from '../ad-data/ad-reports.service.ts';
import type { DimReportService } from '../ad-data/dim-reports.service.ts';
import type { OrderService } from '../orders/orders.service.ts';
import type { PersonalAccountService } from '../personal-accounts/personal-accounts.service.ts';
import type { CronService } from '../sys-cron/sys-cron.service.ts';
import { failedAdAccountSyncs, liveSites } from './dashboard.repository.ts';

// The delivery dashboard of the landing pages (issue 9): today and yesterday, the 30-day trend and
// the top dramas read the report by dimension; the top campaigns read the campaign report; so each
// figure is the registry metric of the rows it summarizes, in the caller's data scope. Alerts come
// from the states the system holds: tokens, ad accounts, sync runs (job_runs), sites' order webhooks.

export interface DashboardDeps {
  db: Db;
  clock: Clock;
  reportTimezone: string;
  dimReports: DimReportService;
  adReports: AdReportService;
  personalAccounts: PersonalAccountService;
  adAccounts: AdAccountService;
  orders: OrderService;
  cron: CronService;
}

type Body = z.output<typeof dashboardBodySchema>;

const TREND_DAYS = 30;
const TOP_ROWS = 10;
/** Alerts listed per kind (the counts say how many there are). */
const ALERT_ROWS = 5;
/** A failed sync older than this is history, not an alert (the sync runs every 15 minutes to hourly). */
const SYNC_ALERT_MS = 3 * 24 * 3600_000;
/** account_status of ad accounts that cannot deliver: DISABLED, UNSETTLED (reference §2). */
const STOPPED_ACCOUNT_STATUSES = [2, 3] as const;
/** On-demand sync runs are alerted per ad account, not as a scheduled task. */
const PER_ACCOUNT_JOB = 'sync-ad-account';

const ALERT_ORDER: DashboardAlert['kind'][] = ['token_invalid', 'ad_account_disabled', 'sync_failed', 'job_failed', 'site_failing', 'site_silent', 'token_expiring'];

function topRange(range: Body['top_range'], today: string): { date_from: string; date_to: string } {
  switch (range) {
    case 'today':
      return { date_from: today, date_to: today };
    case 'yesterday':
      return { date_from: addDays(today, -1), date_to: addDays(today, -1) };
    case 'last30':
      return { date_from: addDays(today, -(TREND_DAYS - 1)), date_to: today };
    default:
      return { date_from: addDays(today, -6), date_to: today };
  }
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function createDashboardService(d: DashboardDeps) {
  const { db, clock, reportTimezone } = d;

  async function alerts(ctx: RequestContext, company: boolean, now: Date): Promise<{ list: DashboardAlert[]; counts: Dashboard['alert_counts'] }> {
    const counts: Dashboard['alert_counts'] = { token_expiring: 0, token_invalid: 0, ad_account_disabled: 0, sync_failed: 0, job_failed: 0, site_silent: 0, site_failing: 0 };
    const list: DashboardAlert[] = [];
    const alert = (a: Omit<DashboardAlert, 'status'> & { status?: number | null }) => list.push({ status: null, ...a });
    const tokens = (status: 'expiring' | 'invalid') => d.personalAccounts.list(ctx, { page: 1, page_size: ALERT_ROWS, status, sort_field: 'token_expires_at', sort_order: 'ascend' });
    const stopped = (account_status: number) => d.adAccounts.list(ctx, { page: 1, page_size: ALERT_ROWS, account_status });
    const seesSites = company || ctx.actor.pathSet.has('/auth/site');
    const isSuper = ctx.actor.is_admin === IS_ADMIN_SUPER;
    const [expiring, invalid, accounts, syncs, jobs, sites] = await Promise.all([
      tokens('expiring'),
      tokens('invalid'),
      Promise.all(STOPPED_ACCOUNT_STATUSES.map(stopped)),
      visibleAdAccountIds(db, ctx.actor).then((ids) => failedAdAccountSyncs(db, ids, new Date(now.getTime() - SYNC_ALERT_MS), ctx.lang, ALERT_ROWS)),
      isSuper ? d.cron.list(ctx) : null,
      seesSites ? liveSites(db).then(async (rows) => ({ rows, health: await d.orders.siteHealth(rows.map((s) => s.id), now) })) : null,
    ]);
    counts.token_expiring = expiring.total;
    for (const p of expiring.list) alert({ kind: 'token_expiring', id: p.id, name: p.name, detail: p.status_reason, at: p.token_expires_at });
    counts.token_invalid = invalid.total;
    for (const p of invalid.list) alert({ kind: 'token_invalid', id: p.id, name: p.name, detail: p.status_reason, at: p.token_expires_at });
    counts.ad_account_disabled = accounts.reduce((s, r) => s + r.total, 0);
    for (const a of accounts.flatMap((r) => r.list).slice(0, ALERT_ROWS)) alert({ kind: 'ad_account_disabled', id: a.id, name: a.name, detail: a.platform_id, at: null, status: a.account_status });
    counts.sync_failed = syncs.total;
    for (const s of syncs.rows) alert({ kind: 'sync_failed', id: s.ad_account_id, name: s.name, detail: s.message, at: iso(s.finished_at) });
    if (jobs) {
      const failed = jobs.list.filter((j) => j.name !== PER_ACCOUNT_JOB && j.last_run?.status === 'failed');
      counts.job_failed = failed.length;
      for (const j of failed.slice(0, ALERT_ROWS)) alert({ kind: 'job_failed', id: null, name: j.title, detail: j.last_run?.message ?? null, at: j.last_run?.finished_at ?? j.last_run?.started_at ?? null });
    }
    if (sites) {
      for (const kind of ['site_failing', 'site_silent'] as const) {
        const status = kind === 'site_failing' ? 'failing' : 'silent';
        const hit = sites.rows.filter((s) => sites.health.get(s.id)?.webhook_health.status === status);
        counts[kind] = hit.length;
        for (const s of hit.slice(0, ALERT_ROWS)) {
          const h = sites.health.get(s.id)!.webhook_health;
          alert({ kind, id: s.id, name: s.name, detail: null, at: kind === 'site_silent' ? h.last_received_at : h.last_delivery_at });
        }
      }
    }
    list.sort((a, b) => ALERT_ORDER.indexOf(a.kind) - ALERT_ORDER.indexOf(b.kind));
    return { list, counts };
  }

  return {
    async dashboard(ctx: RequestContext, body: Body): Promise<Dashboard> {
      const now = clock.now();
      const today = dayIn(now.getTime(), reportTimezone);
      const yesterday = addDays(today, -1);
      const from = addDays(today, -(TREND_DAYS - 1));
      // The trend first: it brings the rollups of the whole range up to date for the reads after it.
      const trend = await d.dimReports.report(ctx, dimReportBodySchema.parse({ dimension: 'day', date_from: from, date_to: today, page_size: TREND_DAYS + 1, sort_field: 'name', sort_order: 'ascend' }));
      const company = trend.organic_totals !== null;
      const range = topRange(body.top_range, today);
      const top = (dimension: 'drama' | 'product') =>
        d.dimReports.report(ctx, dimReportBodySchema.parse({ dimension, ...range, page_size: TOP_ROWS + 1, sort_field: body.top_by, sort_order: 'descend' }));
      const [dramas, products, campaigns, alertList] = await Promise.all([
        top('drama'),
        top('product'),
        d.adReports.list(ctx, adReportBodySchema.parse({ level: 'campaign', ...range, page: 1, page_size: TOP_ROWS, sort_field: body.top_by, sort_order: 'descend', columns: ['spend', 'revenue', 'roi', 'd0_roi'] })),
        alerts(ctx, company, now),
      ]);

      const byDay = new Map(trend.list.map((r) => [r.key, r]));
      const dayOf = (day: string): DashboardDay => {
        const r = byDay.get(day);
        return {
          day,
          spend: r?.metrics.spend ?? 0,
          revenue: r?.metrics.revenue ?? 0,
          roi: r?.metrics.roi ?? null,
          d0_roi: r?.metrics.d0_roi ?? null,
          d0_matured: day < today,
          orders: r?.orders ?? 0,
          new_payers: r?.metrics.new_payers ?? 0,
          organic_revenue: company ? (r?.organic?.revenue ?? 0) : null,
          organic_orders: company ? (r?.organic?.orders ?? 0) : null,
        };
      };
      const topOf = (rows: DimReportRow[]): DashboardTop[] =>
        rows
          // Spend and revenue without a drama (or product) are not a drama of the top list.
          .filter((r) => r.key !== '')
          .slice(0, TOP_ROWS)
          .map((r) => ({ id: r.id, name: r.name, detail: r.detail, spend: r.metrics.spend ?? 0, revenue: r.metrics.revenue ?? 0, roi: r.metrics.roi ?? null, d0_roi: r.metrics.d0_roi ?? null }));
      return {
        today,
        yesterday,
        report_timezone: reportTimezone,
        company,
        as_of: trend.as_of,
        pending: trend.pending,
        days: { today: dayOf(today), yesterday: dayOf(yesterday) },
        trend: Array.from({ length: TREND_DAYS }, (_, i) => dayOf(addDays(from, i))),
        top_range: range,
        top_dramas: topOf(dramas.list),
        top_products: topOf(products.list),
        top_campaigns: campaigns.list
          // Campaigns without figures in the range are listed by the report (it lists objects), not ranked here.
          .filter((c) => (c.metrics.spend ?? 0) !== 0 || (c.metrics.revenue ?? 0) !== 0)
          .map((c) => ({ id: c.id, name: c.name, detail: c.ad_account?.name ?? null, spend: c.metrics.spend ?? 0, revenue: c.metrics.revenue ?? 0, roi: c.metrics.roi ?? null, d0_roi: c.metrics.d0_roi ?? null })),
        alerts: alertList.list,
        alert_counts: alertList.counts,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
