import { between, rng, stochasticRound } from '../random.ts';
import { videoLengthSeconds } from '../routes/videos.ts';
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
// computed lazily, and finished days are cached. Purchases are the final counts; the pixel
// reports them late (`reported`), as Meta's attribution window fills.

/** Video delivery of one ad-hour (video ads only). Counts of plays reaching each point. */
export interface VideoCell {
  plays: number;
  /** Plays of at least 3 seconds (the `video_view` action). */
  views_3s: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
  p100: number;
  /** Plays to the end, or of at least 15 seconds for longer videos. */
  thruplays: number;
  /** Sum of the watched time of all plays. */
  watch_ms: number;
}

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
  video?: VideoCell;
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

/**
 * Late conversions: this share of an hour's purchases is reported with the hour; each of the
 * others after a delay of up to LATE_MAX_MS, skewed towards the first day (the attribution
 * window of 7-day click fills mostly early).
 */
const ON_TIME_SHARE = 0.6;
export const LATE_MAX_MS = 7 * DAY_MS;

/** Finished owner-days kept in memory, counted in ad-hour cells (~100 bytes each). */
const MAX_CACHED_CELLS = 1_500_000;

/** Per-ad traits that stay fixed for the ad's life: a good ad stays good. */
interface AdTraits {
  quality: number;
  cpmUsd: number;
  ctr: number;
  cvr: number;
  /** Share of impressions that start the video (autoplay in feeds). */
  playRate: number;
  /** Seconds after which a play survives with probability 1/e (how gripping the video is). */
  retentionSeconds: number;
}

export class DeliveryModel {
  private readonly cache = new Map<string, { cells: Map<string, HourCell[]>; size: number }>();
  private cachedCells = 0;
  private readonly traits = new Map<string, AdTraits>();
  /** Budget owners per account, rebuilt when the store changes (an O(ads) pass). */
  private ownersIndex: { state: unknown; version: number; byAccount: Map<string, BudgetOwner[]> } | undefined;

  constructor(
    private readonly store: Store,
    private readonly seed: number,
  ) {}

  clearCache(): void {
    this.cache.clear();
    this.cachedCells = 0;
    this.ownersIndex = undefined;
  }

  /** Least recently used first out once the cache is over its size. */
  private remember(key: string, cells: Map<string, HourCell[]>): void {
    let size = 0;
    for (const list of cells.values()) size += list.length;
    this.cache.set(key, { cells, size });
    this.cachedCells += size;
    for (const [oldKey, entry] of this.cache) {
      if (this.cachedCells <= MAX_CACHED_CELLS) break;
      this.cache.delete(oldKey);
      this.cachedCells -= entry.size;
    }
  }

  /**
   * Budget owners of an account with all their ads. Callers filter the cells, never the ads:
   * an owner's budget is shared by all its ads, so dropping one would change the others.
   */
  owners(accountId: string): readonly BudgetOwner[] {
    const s = this.store.state;
    const index = this.ownersIndex;
    if (index && index.state === s && index.version === this.store.version) return index.byAccount.get(accountId) ?? [];
    const byOwner = new Map<string, BudgetOwner>();
    for (const ad of Object.values(s.ads)) {
      const account = s.ad_accounts[ad.account_id];
      const campaign = s.campaigns[ad.campaign_id];
      const adset = s.adsets[ad.adset_id];
      if (!account || !campaign || !adset) continue;
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
    const byAccount = new Map<string, BudgetOwner[]>();
    for (const owner of byOwner.values()) {
      let list = byAccount.get(owner.account.id);
      if (!list) byAccount.set(owner.account.id, (list = []));
      list.push(owner);
    }
    this.ownersIndex = { state: s, version: this.store.version, byAccount };
    return byAccount.get(accountId) ?? [];
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
      if (hit) {
        // Refresh its place in the LRU order.
        this.cache.delete(key);
        this.cache.set(key, hit);
        return hit.cells;
      }
    }

    const result = new Map<string, HourCell[]>();
    const ads = owner.ads.filter((ad) => ad.created_at < until);
    if (until <= dayStart || ads.length === 0) return result;

    // Per-ad inputs once per day, and plain loops: this runs for every ad-hour of a report.
    const n = ads.length;
    const intervals: Interval[][] = ads.map((ad) => this.adIntervals(ad, owner.account));
    const quality = ads.map((ad) => this.adTraits(ad.id).quality);
    const videoSeconds = ads.map((ad) => this.adVideoSeconds(ad));
    const fractions = new Float64Array(n);
    const raw = new Float64Array(n);
    const util = between(rng(this.seed, 'util', owner.id, date), 0.82, 0.97);
    let spentToday = 0;

    // On days without a DST change the k-th slot is local hour k; only DST days ask Intl.
    const plainDay = dayEnd - dayStart === DAY_MS;
    for (let slot = dayStart; slot < until; slot += HOUR_MS) {
      const slotEnd = Math.min(slot + HOUR_MS, until, dayEnd);
      let any = false;
      for (let i = 0; i < n; i++) {
        fractions[i] = coverage(intervals[i]!, slot, slotEnd) / HOUR_MS;
        if (fractions[i] !== 0) any = true;
      }
      if (!any) continue;

      const cap = this.dailyCap(owner.history, slot);
      const hour = plainDay ? (slot - dayStart) / HOUR_MS : localHour(slot + HOUR_MS / 2, tz);
      const hourTarget = (cap * util * DIURNAL[hour]!) / DIURNAL_SUM;
      let qualitySum = 0;
      for (let i = 0; i < n; i++) if (fractions[i]! > 0) qualitySum += quality[i]!;

      let rawSum = 0;
      for (let i = 0; i < n; i++) {
        raw[i] = fractions[i] === 0 ? 0 : ((hourTarget * quality[i]!) / qualitySum) * fractions[i]! * between(rng(this.seed, 'pace', ads[i]!.id, slot), 0.8, 1.2);
        rawSum += raw[i]!;
      }
      const room = Math.max(0, cap - spentToday);
      const scale = rawSum > room ? room / rawSum : 1;

      for (let i = 0; i < n; i++) {
        if (fractions[i] === 0) continue;
        const ad = ads[i]!;
        const spend = Math.floor(raw[i]! * scale);
        spentToday += spend;
        const cell = this.deriveCell(ad.id, slot, spend, owner.account.currency, videoSeconds[i]);
        let cells = result.get(ad.id);
        if (!cells) result.set(ad.id, (cells = []));
        cells.push(cell);
      }
    }

    if (cacheable) this.remember(key, result);
    return result;
  }

  /**
   * The purchases of an ad-hour the pixel has reported by `asOf`, and their value. Each
   * purchase has a fixed reporting delay (seeded), so the count only grows with time and is
   * final LATE_MAX_MS after the hour. The sites' orders are the truth behind these (webhooks/cohort.ts).
   */
  reported(adId: string, cell: HourCell, asOf: number, currency: string): { purchases: number; purchase_value: number } {
    if (cell.purchases === 0 || asOf - cell.slot >= LATE_MAX_MS + HOUR_MS) return cell;
    const next = rng(this.seed, 'late', adId, cell.slot);
    const prices = this.orderPrices(adId, cell.slot, cell.purchases, currency);
    const hourEnd = cell.slot + HOUR_MS;
    let purchases = 0;
    let value = 0;
    prices.forEach((price) => {
      const u = next();
      const delay = u < ON_TIME_SHARE ? 0 : LATE_MAX_MS * ((u - ON_TIME_SHARE) / (1 - ON_TIME_SHARE)) ** 2;
      // On-time purchases show while the hour runs; late ones count from its end.
      if (delay === 0 || hourEnd + delay <= asOf) {
        purchases += 1;
        value += price;
      }
    });
    return { purchases, purchase_value: value };
  }

  /** Total spend (minor units) of an account's ads in [fromMs, asOf). */
  accountSpend(accountId: string, fromMs: number, asOf: number): number {
    return this.spendOf(this.owners(accountId), fromMs, asOf);
  }

  /** Total spend (minor units) of some budget owners' ads in [fromMs, asOf). */
  spendOf(owners: readonly BudgetOwner[], fromMs: number, asOf: number): number {
    return this.sumCells(owners, fromMs, asOf).spend;
  }

  /** Sums the cells of some owners' ads (optionally only some ads) in [fromMs, asOf). */
  sumCells(owners: readonly BudgetOwner[], fromMs: number, asOf: number, onlyAds?: ReadonlySet<string>): Omit<HourCell, 'slot' | 'video'> {
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

  /** Prices of the individual purchases of one ad-hour as the pixel values them, in minor units. */
  orderPrices(adId: string, slot: number, count: number, currency: string): number[] {
    if (count === 0) return [];
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
      t = {
        quality: between(next, 0.5, 1.5),
        cpmUsd: between(next, 6, 16),
        ctr: between(next, 0.008, 0.03),
        cvr: between(next, 0.01, 0.06),
        playRate: between(next, 0.55, 0.85),
        retentionSeconds: between(next, 3, 14),
      };
      this.traits.set(adId, t);
    }
    return t;
  }

  /** Duration of the ad's video, when its creative is a video. */
  private adVideoSeconds(ad: AdRecord): number | undefined {
    const s = this.store.state;
    const postId = s.creatives[ad.creative_id]?.effective_object_story_id;
    const videoId = postId === undefined ? undefined : s.posts[postId]?.video_id;
    const video = videoId === undefined ? undefined : s.videos[videoId];
    return video ? videoLengthSeconds(video) : undefined;
  }

  /**
   * Plays and how far they got. A play survives to second t with probability e^(-t/τ), so the
   * counts at 25 %, 50 % … 100 %, 3 s and ThruPlay (15 s, or the end of a shorter video) are a
   * chain of roundings along the video: each point never exceeds the one before it.
   */
  private deriveVideo(adId: string, slot: number, impressions: number, duration: number): VideoCell {
    const t = this.adTraits(adId);
    const next = rng(this.seed, 'video', adId, slot);
    const tau = t.retentionSeconds;
    const plays = stochasticRound(impressions * t.playRate * between(next, 0.9, 1.1), next());
    const points: Array<[keyof VideoCell, number]> = [
      ['views_3s', Math.min(3, duration)],
      ['p25', 0.25 * duration],
      ['p50', 0.5 * duration],
      ['p75', 0.75 * duration],
      ['p95', 0.95 * duration],
      ['p100', duration],
      ['thruplays', Math.min(15, duration)],
    ];
    points.sort((a, b) => a[1] - b[1]);
    const cell: VideoCell = { plays, views_3s: 0, p25: 0, p50: 0, p75: 0, p95: 0, p100: 0, thruplays: 0, watch_ms: 0 };
    let count = plays;
    let at = 0;
    for (const [key, seconds] of points) {
      count = stochasticRound(count * Math.exp(-(seconds - at) / tau), next());
      at = seconds;
      cell[key] = count;
    }
    // Expected watched time of a play: the integral of the survival curve over the video.
    const perPlay = Math.min(duration, tau * (1 - Math.exp(-duration / tau)) * between(next, 0.9, 1.1));
    cell.watch_ms = Math.round(plays * perPlay * 1000);
    return cell;
  }

  /** Everything else of an ad-hour follows from its spend and the ad's traits. */
  private deriveCell(adId: string, slot: number, spend: number, currency: string, videoSeconds?: number): HourCell {
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
    const cell: HourCell = { slot, spend, impressions, clicks, link_clicks, landing_page_views, checkouts, purchases, purchase_value };
    if (videoSeconds !== undefined) cell.video = this.deriveVideo(adId, slot, impressions, videoSeconds);
    return cell;
  }
}
