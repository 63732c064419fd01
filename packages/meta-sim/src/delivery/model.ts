import { between, rng, stochasticRound } from '../random.ts';
import type { AdAccountRecord, AdRecord, DeliverySnapshot } from '../store/state.ts';
import type { Store } from '../store/store.ts';
import { usdToMinor } from '../money.ts';
import { addDays, DAY_MS, HOUR_MS, localDate, localHour, startOfLocalDay } from '../time.ts';
import { coverage, intersect, onIntervals, snapshotAt, type Interval } from './intervals.ts';
import { isCampaignBudget } from './status.ts';

// The delivery model. Spend is paced hour by hour (hours aligned to the ad account's local day)
// against the budget in force, split between the owner's active ads, and capped so a day never
// spends more than its budget. Everything else follows from spend with per-ad rates. Every
// number is a pure function of (seed, object ids, hour, recorded history), so any range can be
// computed lazily, and finished days are cached.

/** One ad's delivery in one hour. Money in the account currency's minor units. */
export interface HourCell {
  /** Start of the hour slot (ms). */
  slot: number;
  spend: number;
  impressions: number;
  clicks: number;
  link_clicks: number;
  landing_page_views: number;
  checkouts: number;
  purchases: number;
  purchase_value: number;
}

/** A budget owner: a CBO campaign or an ad set of a campaign without a budget. */
export interface BudgetOwner {
  kind: 'campaign' | 'adset';
  id: string;
  account: AdAccountRecord;
  history: DeliverySnapshot[];
  ads: AdRecord[];
}

/** Relative spend by local hour of day: quiet nights, busy evenings. */
const DIURNAL = [0.35, 0.25, 0.2, 0.18, 0.2, 0.3, 0.5, 0.75, 0.9, 1, 1.05, 1.1, 1.15, 1.1, 1.05, 1.05, 1.1, 1.2, 1.35, 1.5, 1.6, 1.5, 1.1, 0.65];
const DIURNAL_SUM = DIURNAL.reduce((a, b) => a + b, 0);

/** Price points of a recharge or an order, in USD. */
const PRICE_POINTS_USD = [0.99, 4.99, 9.99, 9.99, 19.99, 19.99, 29.99, 49.99];

/** Per-ad traits that stay fixed for the ad's life: a good ad stays good. */
interface AdTraits {
  quality: number;
  cpmUsd: number;
  ctr: number;
  cvr: number;
}

export class DeliveryModel {
  private readonly cache = new Map<string, Map<string, HourCell[]>>();
  private readonly traits = new Map<string, AdTraits>();

  constructor(
    private readonly store: Store,
    private readonly seed: number,
  ) {}

  clearCache(): void {
    this.cache.clear();
  }

  /**
   * Budget owners of an account with all their ads. Callers filter the cells, never the ads:
   * an owner's budget is shared by all its ads, so dropping one would change the others.
   */
  owners(accountId: string): BudgetOwner[] {
    const s = this.store.state;
    const account = s.ad_accounts[accountId];
    if (!account) return [];
    const byOwner = new Map<string, BudgetOwner>();
    for (const ad of Object.values(s.ads)) {
      if (ad.account_id !== accountId) continue;
      const campaign = s.campaigns[ad.campaign_id];
      const adset = s.adsets[ad.adset_id];
      if (!campaign || !adset) continue;
      const owner = isCampaignBudget(campaign)
        ? { kind: 'campaign' as const, id: campaign.id, history: campaign.history }
        : { kind: 'adset' as const, id: adset.id, history: adset.history };
      let entry = byOwner.get(owner.id);
      if (!entry) {
        entry = { ...owner, account, ads: [] };
        byOwner.set(owner.id, entry);
      }
      entry.ads.push(ad);
    }
    return [...byOwner.values()];
  }

  /**
   * Hourly cells of every ad of an owner for one local day, up to `asOf` (the current hour
   * counts in proportion to its elapsed part). Finished days are cached: history only grows
   * at the present, so a finished day never changes.
   */
  ownerDay(owner: BudgetOwner, date: string, asOf: number): Map<string, HourCell[]> {
    const tz = owner.account.timezone_name;
    const dayStart = startOfLocalDay(date, tz);
    const dayEnd = startOfLocalDay(addDays(date, 1), tz);
    const until = Math.min(asOf, dayEnd);
    const cacheable = dayEnd <= asOf;
    const key = `${owner.id}|${date}`;
    if (cacheable) {
      const hit = this.cache.get(key);
      if (hit) return hit;
    }

    const result = new Map<string, HourCell[]>();
    const ads = owner.ads.filter((ad) => ad.created_at < until);
    if (until <= dayStart || ads.length === 0) return result;

    const intervals = new Map<string, Interval[]>(ads.map((ad) => [ad.id, this.adIntervals(ad, owner.account)]));
    const util = between(rng(this.seed, 'util', owner.id, date), 0.82, 0.97);
    let spentToday = 0;

    // On days without a DST change the k-th slot is local hour k; only DST days ask Intl.
    const plainDay = dayEnd - dayStart === DAY_MS;
    for (let slot = dayStart; slot < until; slot += HOUR_MS) {
      const slotEnd = Math.min(slot + HOUR_MS, until, dayEnd);
      const fractions = ads.map((ad) => coverage(intervals.get(ad.id)!, slot, slotEnd) / HOUR_MS);
      if (fractions.every((f) => f === 0)) continue;

      const cap = this.dailyCap(owner.history, slot);
      const hour = plainDay ? (slot - dayStart) / HOUR_MS : localHour(slot + HOUR_MS / 2, tz);
      const hourTarget = (cap * util * DIURNAL[hour]!) / DIURNAL_SUM;
      const active = ads.filter((_, i) => fractions[i]! > 0);
      const qualitySum = active.reduce((sum, ad) => sum + this.adTraits(ad.id).quality, 0);

      const raw = ads.map((ad, i) => {
        if (fractions[i] === 0) return 0;
        const noise = between(rng(this.seed, 'pace', ad.id, slot), 0.8, 1.2);
        return ((hourTarget * this.adTraits(ad.id).quality) / qualitySum) * fractions[i]! * noise;
      });
      const rawSum = raw.reduce((a, b) => a + b, 0);
      const room = Math.max(0, cap - spentToday);
      const scale = rawSum > room ? room / rawSum : 1;

      ads.forEach((ad, i) => {
        if (fractions[i] === 0) return;
        const spend = Math.floor(raw[i]! * scale);
        spentToday += spend;
        const cell = this.deriveCell(ad.id, slot, spend, owner.account.currency);
        let cells = result.get(ad.id);
        if (!cells) result.set(ad.id, (cells = []));
        cells.push(cell);
      });
    }

    if (cacheable) this.cache.set(key, result);
    return result;
  }

  /** Total spend (minor units) of an account's ads in [fromMs, asOf). */
  accountSpend(accountId: string, fromMs: number, asOf: number): number {
    return this.spendOf(this.owners(accountId), fromMs, asOf);
  }

  /** Total spend (minor units) of some budget owners' ads in [fromMs, asOf). */
  spendOf(owners: BudgetOwner[], fromMs: number, asOf: number): number {
    return this.sumCells(owners, fromMs, asOf).spend;
  }

  /** Sums the cells of some owners' ads (optionally only some ads) in [fromMs, asOf). */
  sumCells(owners: BudgetOwner[], fromMs: number, asOf: number, onlyAds?: ReadonlySet<string>): Omit<HourCell, 'slot'> {
    const total = { spend: 0, impressions: 0, clicks: 0, link_clicks: 0, landing_page_views: 0, checkouts: 0, purchases: 0, purchase_value: 0 };
    if (owners.length === 0 || asOf <= fromMs) return total;
    const tz = owners[0]!.account.timezone_name;
    const firstAd = Math.min(...owners.flatMap((o) => o.ads.map((a) => a.created_at)));
    const last = localDate(asOf, tz);
    for (let date = localDate(Math.max(fromMs, firstAd), tz); date <= last; date = addDays(date, 1)) {
      for (const owner of owners) {
        for (const [adId, cells] of this.ownerDay(owner, date, asOf)) {
          if (onlyAds && !onlyAds.has(adId)) continue;
          for (const c of cells) {
            if (c.slot < fromMs) continue;
            for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += c[k];
          }
        }
      }
    }
    return total;
  }

  /** Spend of an owner's ads on the local day containing `at`, up to `at` (budget_remaining). */
  ownerSpendToday(owner: BudgetOwner, at: number): number {
    const date = localDate(at, owner.account.timezone_name);
    let total = 0;
    for (const cells of this.ownerDay(owner, date, at).values()) for (const c of cells) total += c.spend;
    return total;
  }

  /** Prices of the individual purchases of one ad-hour, in minor units (orders re-use these). */
  orderPrices(adId: string, slot: number, count: number, currency: string): number[] {
    const next = rng(this.seed, 'orders', adId, slot);
    const prices: number[] = [];
    for (let i = 0; i < count; i++) {
      const usd = PRICE_POINTS_USD[Math.floor(next() * PRICE_POINTS_USD.length)]!;
      prices.push(usdToMinor(usd, currency));
    }
    return prices;
  }

  /** Daily cap in force at an instant; a lifetime budget is spread over its schedule's days. */
  private dailyCap(history: readonly DeliverySnapshot[], at: number): number {
    const snap = snapshotAt(history, at);
    if (!snap) return 0;
    if (snap.daily_budget !== undefined) return snap.daily_budget;
    if (snap.lifetime_budget !== undefined) {
      const span = snap.from !== undefined && snap.until !== undefined ? snap.until - snap.from : 30 * DAY_MS;
      return Math.floor(snap.lifetime_budget / Math.max(1, Math.ceil(span / DAY_MS)));
    }
    return 0;
  }

  /** When the ad, its ad set, campaign and account were all on. */
  private adIntervals(ad: AdRecord, account: AdAccountRecord): Interval[] {
    const s = this.store.state;
    const adset = s.adsets[ad.adset_id];
    const campaign = s.campaigns[ad.campaign_id];
    if (!adset || !campaign) return [];
    return [adset.history, campaign.history, account.history].reduce((acc, h) => intersect(acc, onIntervals(h)), onIntervals(ad.history));
  }

  private adTraits(adId: string): AdTraits {
    let t = this.traits.get(adId);
    if (!t) {
      const next = rng(this.seed, 'traits', adId);
      t = { quality: between(next, 0.5, 1.5), cpmUsd: between(next, 6, 16), ctr: between(next, 0.008, 0.03), cvr: between(next, 0.01, 0.06) };
      this.traits.set(adId, t);
    }
    return t;
  }

  /** Everything else of an ad-hour follows from its spend and the ad's traits. */
  private deriveCell(adId: string, slot: number, spend: number, currency: string): HourCell {
    const t = this.adTraits(adId);
    const next = rng(this.seed, 'hour', adId, slot);
    const cpmMinor = Math.max(1, usdToMinor(t.cpmUsd * between(next, 0.85, 1.15), currency));
    const impressions = stochasticRound((spend / cpmMinor) * 1000, next());
    const clicks = stochasticRound(impressions * t.ctr * between(next, 0.8, 1.2), next());
    const link_clicks = stochasticRound(clicks * between(next, 0.65, 0.9), next());
    const landing_page_views = stochasticRound(link_clicks * between(next, 0.6, 0.9), next());
    const purchases = stochasticRound(landing_page_views * t.cvr * between(next, 0.7, 1.3), next());
    const checkouts = purchases + stochasticRound(landing_page_views * between(next, 0.03, 0.1), next());
    const purchase_value = this.orderPrices(adId, slot, purchases, currency).reduce((a, b) => a + b, 0);
    return { slot, spend, impressions, clicks, link_clicks, landing_page_views, checkouts, purchases, purchase_value };
  }
}
