import type { AdAccountRecord, AdRecord, AdSetRecord, CampaignRecord, DeliverySnapshot } from '../store/state.ts';
import type { Store } from '../store/store.ts';

// Effective status (reference §1): the configured status combined with the parents', the ad
// review and the ad account. And the delivery snapshots the model reads history from.

export function accountIsActive(account: AdAccountRecord | undefined): boolean {
  return account?.account_status === 1;
}

export function campaignEffectiveStatus(store: Store, c: CampaignRecord): string {
  if (c.status !== 'ACTIVE') return c.status;
  return accountIsActive(store.account(c.account_id)) ? 'ACTIVE' : 'WITH_ISSUES';
}

export function adsetEffectiveStatus(store: Store, s: AdSetRecord): string {
  if (s.status === 'DELETED' || s.status === 'ARCHIVED') return s.status;
  const c = store.state.campaigns[s.campaign_id];
  if (c && (c.status === 'DELETED' || c.status === 'ARCHIVED')) return c.status;
  if (s.status === 'PAUSED') return 'PAUSED';
  if (c?.status === 'PAUSED') return 'CAMPAIGN_PAUSED';
  return accountIsActive(store.account(s.account_id)) ? 'ACTIVE' : 'WITH_ISSUES';
}

export function adEffectiveStatus(store: Store, ad: AdRecord, now: number): string {
  if (ad.status === 'DELETED' || ad.status === 'ARCHIVED') return ad.status;
  const s = store.state.adsets[ad.adset_id];
  const c = store.state.campaigns[ad.campaign_id];
  for (const parent of [c, s]) {
    if (parent && (parent.status === 'DELETED' || parent.status === 'ARCHIVED')) return parent.status;
  }
  if (ad.status === 'PAUSED') return 'PAUSED';
  if (ad.disapproved_at !== undefined) return 'DISAPPROVED';
  if (c?.status === 'PAUSED') return 'CAMPAIGN_PAUSED';
  if (s?.status === 'PAUSED') return 'ADSET_PAUSED';
  if (now < ad.review_until) return 'PENDING_REVIEW';
  return accountIsActive(store.account(ad.account_id)) ? 'ACTIVE' : 'WITH_ISSUES';
}

export function issuesInfo(store: Store, accountId: string): unknown[] | undefined {
  if (accountIsActive(store.account(accountId))) return undefined;
  return [
    {
      level: 'AD_ACCOUNT',
      error_summary: 'Ad account disabled',
      error_message: 'The ad account is disabled, so its ads are not delivering.',
      error_type: 'HARD_ERROR',
    },
  ];
}

export function campaignSnapshot(c: CampaignRecord, at: number): DeliverySnapshot {
  return { at, on: c.status === 'ACTIVE', from: c.start_time, until: c.stop_time, daily_budget: c.daily_budget, lifetime_budget: c.lifetime_budget };
}

export function adsetSnapshot(s: AdSetRecord, at: number): DeliverySnapshot {
  return { at, on: s.status === 'ACTIVE', from: s.start_time, until: s.end_time, daily_budget: s.daily_budget, lifetime_budget: s.lifetime_budget };
}

export function adSnapshot(ad: AdRecord, at: number): DeliverySnapshot {
  return { at, on: ad.status === 'ACTIVE' && ad.disapproved_at === undefined, from: ad.review_until };
}

export function accountSnapshot(a: AdAccountRecord, at: number): DeliverySnapshot {
  return { at, on: a.account_status === 1 };
}

/** Campaign budget optimisation: the campaign, not its ad sets, owns the budget. */
export function isCampaignBudget(c: CampaignRecord): boolean {
  return c.daily_budget !== undefined || c.lifetime_budget !== undefined;
}
