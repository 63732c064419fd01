import type { Dashboard, DashboardDay } from '@ads/contracts';

// Answers of /overview/dashboard for screen tests.

export const buildDashboardDay = (d: string, over: Partial<DashboardDay> = {}): DashboardDay => ({ day: d, spend: 0, revenue: 0, roi: null, d0_roi: null, d0_matured: true, orders: 0, new_payers: 0, organic_revenue: null, organic_orders: null, ...over });
/** A dashboard of the caller's scope: today 11-01 (D0 not matured), yesterday 10-31. */
export function buildDashboard(over: Partial<Dashboard> = {}): Dashboard {
  const today = buildDashboardDay('2026-11-01', { spend: 1234.5, revenue: 987.25, roi: 79.97, d0_roi: null, d0_matured: false, orders: 42, new_payers: 30 });
  const yesterday = buildDashboardDay('2026-10-31', { spend: 2000, revenue: 2500, roi: 125, d0_roi: 61.5, orders: 77 });
  const trend = Array.from({ length: 30 }, (_, i) => buildDashboardDay(new Date(Date.UTC(2026, 9, 3 + i)).toISOString().slice(0, 10)));
  trend[28] = yesterday;
  trend[29] = today;
  return {
    today: today.day,
    yesterday: yesterday.day,
    report_timezone: 'Asia/Shanghai',
    company: false,
    as_of: '2026-11-01T07:45:00.000Z',
    pending: false,
    days: { today, yesterday },
    trend,
    top_range: { date_from: '2026-10-26', date_to: '2026-11-01' },
    top_dramas: [{ id: 7, name: 'Love in Paris', detail: 'Drama site', spend: 800, revenue: 1200, roi: 150, d0_roi: 40 }],
    top_products: [],
    top_campaigns: [{ id: 31, name: 'LIP-US-01', detail: 'Acc 1', spend: 500, revenue: 900, roi: 180, d0_roi: 55 }],
    alerts: [
      { kind: 'ad_account_disabled', id: 5, name: 'Acc disabled', detail: 'act_5', at: null, status: 2 },
      { kind: 'sync_failed', id: 6, name: 'Acc 6', detail: 'Token expired', at: '2026-11-01T07:00:00.000Z', status: null },
      { kind: 'token_expiring', id: 9, name: 'FB Alice', detail: null, at: '2026-11-03T07:00:00.000Z', status: null },
    ],
    alert_counts: { token_expiring: 3, token_invalid: 0, ad_account_disabled: 1, sync_failed: 1, job_failed: 0, site_silent: 0, site_failing: 0 },
    ...over,
  };
}

