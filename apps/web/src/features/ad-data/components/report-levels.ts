import type { ReportLevel } from '@ads/contracts';
import type { AdReportQuery } from '../api/use-ad-report';

/** A report screen: the level its rows are, where a row drills to, and whether it is the /admin area. */
export interface ReportScreenConfig {
  path: string;
  level: ReportLevel;
  admin: boolean;
}

export const REPORT_SCREENS = {
  optimizer: { path: '/advertising/user', level: 'optimizer', admin: false },
  account: { path: '/advertising/account', level: 'account', admin: false },
  campaign: { path: '/advertising/campaign', level: 'campaign', admin: false },
  adset: { path: '/advertising/group', level: 'adset', admin: false },
  adminCampaign: { path: '/admin/advertising/campaign', level: 'campaign', admin: true },
  adminAdset: { path: '/admin/advertising/group', level: 'adset', admin: true },
  adminAd: { path: '/admin/advertising/list', level: 'ad', admin: true },
} as const satisfies Record<string, ReportScreenConfig>;

/** What a drill-down keeps: the range, comparison and the filters that mean the same at every level. */
const CARRIED = ['date_from', 'date_to', 'compare', 'platform', 'status'] as const;

export function carried(q: AdReportQuery): Partial<AdReportQuery> {
  const out: Partial<AdReportQuery> = {};
  for (const k of CARRIED) if (q[k] !== undefined) (out as Record<string, unknown>)[k] = q[k];
  return out;
}

/** The drill-down parents of a query, outermost first (each keeps the parents above it). */
export function parentsOf(q: AdReportQuery): Partial<AdReportQuery> {
  return {
    ...(q.owner_user_id !== undefined && { owner_user_id: q.owner_user_id, owner_name: q.owner_name }),
    ...(q.account_name !== undefined && q.ad_account_ids && { ad_account_ids: q.ad_account_ids, account_name: q.account_name }),
    ...(q.campaign_id !== undefined && { campaign_id: q.campaign_id, campaign_name: q.campaign_name }),
  };
}

/** A URL of a report screen with a state. */
export function reportUrl(path: string, q: Partial<AdReportQuery>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v as string | number | boolean));
  }
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

export interface Crumb {
  title: string;
  to?: string;
}

/**
 * The breadcrumbs of a regular report screen: 广告数据 › optimizer › ad account › campaign, each
 * opening its level with the parents above it and the carried range and filters.
 */
export function breadcrumbs(path: string, q: AdReportQuery, rootTitle: string, currentTitle: string, unassigned: string): Crumb[] {
  const keep = carried(q);
  const crumbs: Crumb[] = [{ title: rootTitle, to: reportUrl(REPORT_SCREENS.optimizer.path, keep) }];
  let parents: Partial<AdReportQuery> = {};
  if (q.owner_user_id !== undefined) {
    parents = { owner_user_id: q.owner_user_id, owner_name: q.owner_name };
    crumbs.push({ title: q.owner_name ?? (q.owner_user_id === 0 ? unassigned : `#${q.owner_user_id}`), to: reportUrl(REPORT_SCREENS.account.path, { ...keep, ...parents }) });
  }
  if (q.account_name !== undefined && q.ad_account_ids) {
    parents = { ...parents, ad_account_ids: q.ad_account_ids, account_name: q.account_name };
    crumbs.push({ title: q.account_name, to: reportUrl(REPORT_SCREENS.campaign.path, { ...keep, ...parents }) });
  }
  if (q.campaign_id !== undefined) {
    parents = { ...parents, campaign_id: q.campaign_id, campaign_name: q.campaign_name };
    crumbs.push({ title: q.campaign_name ?? `#${q.campaign_id}`, to: reportUrl(REPORT_SCREENS.adset.path, { ...keep, ...parents }) });
  }
  const last = crumbs.at(-1)!;
  if (last.to?.split('?')[0] === path) delete last.to;
  else if (path !== REPORT_SCREENS.optimizer.path) crumbs.push({ title: currentTitle });
  else delete last.to;
  return crumbs;
}
