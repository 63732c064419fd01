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
/** Finished owner-day summaries kept (a few numbers each): what later days need of earlier ones. */
const MAX_CACHED_SUMMARIES = 400_000;

/**
 * Meta's pacing of a daily budget: a day may spend up to 125 % of it, a calendar week (Sunday to
 * Saturday, in the ad account's time zone) at most 7 times it, the first week prorated
 * (Marketing API "Budgets": "up to 125% of the average daily budget … not spend more than 7 times
 * the average daily budget over a calendar week").
 */
export const DAILY_OVERSPEND = 1.25;
/** Optimization events that end the learning phase, and the window they must fall in (Meta: ~50 in 7 days). */
export const LEARNING_EVENTS = 50;
export const LEARNING_WINDOW_MS = 7 * DAY_MS;
/** A budget change by more than this share restarts learning [U: Meta says "significant"]. */
const SIGNIFICANT_BUDGET_CHANGE = 0.2;
/** An ad set that resumes after this long paused learns again (Meta: paused 7 days or more). */
const LEARNING_PAUSE_RESET_MS = 7 * DAY_MS;

/** Rate multipliers by learning status: weaker and noisier while learning, a little weak when limited. */
const LEARNING_EFFECT: Record<LearningStatus, { cpm: number; ctr: number; cvr: number; noise: number }> = {
  LEARNING: { cpm: 1.2, ctr: 0.85, cvr: 0.75, noise: 2 },
  FAIL: { cpm: 1.1, ctr: 0.92, cvr: 0.85, noise: 1.5 },
  SUCCESS: { cpm: 1, ctr: 1, cvr: 1, noise: 1 },
};
const NEUTRAL = LEARNING_EFFECT.SUCCESS;

export type LearningStatus = 'LEARNING' | 'SUCCESS' | 'FAIL';

/** An ad set's learning phase at some instant (`learning_stage_info`). */
export interface LearningState {
  /** The last significant edit (first delivery, budget change > 20 %, new ad, resume after 7 days). */
  since: number;
  /** Optimization events since `since` (frozen once the phase is decided). */
  events: number;
  status: LearningStatus;
  /** When the status last changed. */
  changed_at: number;
}

/** What later days need of a finished owner-day: its spend and the ad sets' learning at its end. */
interface DaySummary {
  spend: number;
  learning: Map<string, LearningState>;
}

/** Rate multipliers of one ad-hour. */
interface Drift {
  cpm: number;
  ctr: number;
  cvr: number;
  /** Width of the hourly noise relative to the stable state (1). */
  noise: number;
}

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
  /** Creative fatigue: delivered days before the rates start to fall, the fall per day, and the floor. */
  freshDays: number;
  decayPerDay: number;
  fatigueFloor: number;
}

export class DeliveryModel {
  private readonly cache = new Map<string, { cells: Map<string, HourCell[]>; size: number }>();
  private cachedCells = 0;
  private readonly summaries = new Map<string, DaySummary>();
  private readonly traits = new Map<string, AdTraits>();
  /** Budget owners per account, rebuilt when the store changes (an O(ads) pass). */
  private ownersIndex: { state: unknown; version: number; byAccount: Map<string, BudgetOwner[]> } | undefined;

  constructor(
    private readonly store: Store,
    private readonly seed: number,
  ) {}

  clearCache(): void {
    this.cache.clear();
    this.summaries.clear();
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

  /** Learning phase, creative fatigue and overspend on (the default); off = flat rates, days within budget. */
  dynamics(): boolean {
    return this.store.state.settings.delivery_dynamics !== false;
  }

  /**
   * Hourly cells of every ad of an owner for one local day, up to `asOf` (the current hour
   * counts in proportion to its elapsed part). Finished days are cached: history only grows
   * at the present, so a finished day never changes.
   */
  ownerDay(owner: BudgetOwner, date: string, asOf: number): Map<string, HourCell[]> {
    const key = `${owner.id}|${date}`;
    // Only a day finished by `asOf` may come from the cache (an earlier `asOf` sees part of it).
    const hit = startOfLocalDay(addDays(date, 1), owner.account.timezone_name) <= asOf ? this.cache.get(key) : undefined;
    if (hit) {
      // Refresh its place in the LRU order.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.cells;
    }
    return this.computeDay(owner, date, asOf).cells;
  }

  /** An ad set's learning phase as of `at` (undefined before it first delivers or with dynamics off). */
  learningState(adsetId: string, at: number): LearningState | undefined {
    const adset = this.store.state.adsets[adsetId];
    if (!adset || !this.dynamics()) return undefined;
    const owner = this.owners(adset.account_id).find((o) => o.id === adsetId || o.id === adset.campaign_id);
    if (!owner) return undefined;
    return this.computeDay(owner, localDate(at, owner.account.timezone_name), at).summary.learning.get(adsetId);
  }

  /** The summary of a finished owner-day, computing the day if it is not remembered. */
  private summaryOf(owner: BudgetOwner, date: string, asOf: number): DaySummary {
    const finished = startOfLocalDay(addDays(date, 1), owner.account.timezone_name) <= asOf;
    return (finished ? this.summaries.get(`${owner.id}|${date}`) : undefined) ?? this.computeDay(owner, date, asOf).summary;
  }

  private computeDay(owner: BudgetOwner, date: string, asOf: number): { cells: Map<string, HourCell[]>; summary: DaySummary } {
    const tz = owner.account.timezone_name;
    const dayStart = startOfLocalDay(date, tz);
    const dayEnd = startOfLocalDay(addDays(date, 1), tz);
    const until = Math.min(asOf, dayEnd);
    const cacheable = dayEnd <= asOf;
    const key = `${owner.id}|${date}`;

    const result = new Map<string, HourCell[]>();
    const summary: DaySummary = { spend: 0, learning: new Map() };
    const ads = owner.ads.filter((ad) => ad.created_at < until);
    if (until <= dayStart || ads.length === 0) return { cells: result, summary };

    // Per-ad inputs once per day, and plain loops: this runs for every ad-hour of a report.
    const n = ads.length;
    const dynamic = this.dynamics();
    const intervals: Interval[][] = ads.map((ad) => this.adIntervals(ad, owner.account));
    const traits = ads.map((ad) => this.adTraits(ad.id));
    const videoSeconds = ads.map((ad) => this.adVideoSeconds(ad));
    const fractions = new Float64Array(n);
    const raw = new Float64Array(n);
    // With dynamics a day aims a little either side of the budget (the week's cap evens it out).
    const utilRange = dynamic ? [0.78, 1.15] : [0.82, 0.97];
    const util = between(rng(this.seed, 'util', owner.id, date), utilRange[0]!, utilRange[1]!);
    let spentToday = 0;

    // Learning is per ad set; the ad sets of this owner with their edits and state at the day's start.
    const adsetIndex = dynamic ? this.learningInputs(owner, ads, intervals, date, dayStart, asOf) : new Map<string, { edits: number[]; goal: string; state?: LearningState }>();
    const adsetOf = ads.map((ad) => adsetIndex.get(ad.adset_id));
    // Days of this calendar week before today: their spend and what they were allowed.
    const week = dynamic ? this.weekBefore(owner, date, asOf) : { spent: 0, allowance: 0, daysLeft: 7 };

    // On days without a DST change the k-th slot is local hour k; only DST days ask Intl.
    const plainDay = dayEnd - dayStart === DAY_MS;
    for (let slot = dayStart; slot < until; slot += HOUR_MS) {
      const slotEnd = Math.min(slot + HOUR_MS, until, dayEnd);
      for (const entry of adsetIndex.values()) entry.state = advanceLearning(entry.edits, entry.state, slot);
      let any = false;
      for (let i = 0; i < n; i++) {
        fractions[i] = coverage(intervals[i]!, slot, slotEnd) / HOUR_MS;
        if (fractions[i] !== 0) any = true;
      }
      if (!any) continue;

      const snap = snapshotAt(owner.history, slot);
      const cap = this.dailyCap(owner.history, slot);
      // A daily budget may be exceeded on a day, within the week's 7 budgets (prorated from the start).
      const limit = dynamic && snap?.daily_budget !== undefined ? Math.min(Math.floor(cap * DAILY_OVERSPEND), week.allowance + cap * week.daysLeft - week.spent) : cap;
      const hour = plainDay ? (slot - dayStart) / HOUR_MS : localHour(slot + HOUR_MS / 2, tz);
      const hourTarget = (cap * util * DIURNAL[hour]!) / DIURNAL_SUM;
      let qualitySum = 0;
      for (let i = 0; i < n; i++) if (fractions[i]! > 0) qualitySum += traits[i]!.quality;

      let rawSum = 0;
      for (let i = 0; i < n; i++) {
        raw[i] = fractions[i] === 0 ? 0 : ((hourTarget * traits[i]!.quality) / qualitySum) * fractions[i]! * between(rng(this.seed, 'pace', ads[i]!.id, slot), 0.8, 1.2);
        rawSum += raw[i]!;
      }
      const room = Math.max(0, limit - spentToday);
      const scale = rawSum > room ? room / rawSum : 1;

      for (let i = 0; i < n; i++) {
        if (fractions[i] === 0) continue;
        const ad = ads[i]!;
        const spend = Math.floor(raw[i]! * scale);
        spentToday += spend;
        const learning = adsetOf[i]?.state;
        const drift = dynamic ? this.drift(traits[i]!, learning?.status, coverage(intervals[i]!, -Infinity, slot) / DAY_MS) : NEUTRAL;
        const cell = this.deriveCell(ad.id, slot, spend, owner.account.currency, videoSeconds[i], drift);
        if (learning?.status === 'LEARNING') learning.events += optimizationEvents(adsetOf[i]!.goal, cell);
        let cells = result.get(ad.id);
        if (!cells) result.set(ad.id, (cells = []));
        cells.push(cell);
      }
      // The phase ends once its events are in; the next hour delivers as a learned ad set.
      for (const entry of adsetIndex.values()) {
        const st = entry.state;
        if (st?.status === 'LEARNING' && st.events >= LEARNING_EVENTS) entry.state = { ...st, status: 'SUCCESS', changed_at: slotEnd };
      }
    }

    summary.spend = spentToday;
    for (const [id, entry] of adsetIndex) {
      // A day that ended without delivery still decides a phase whose window ran out.
      const st = entry.state ? advanceLearning(entry.edits, entry.state, until) : advanceLearning(entry.edits, undefined, until);
      if (st) summary.learning.set(id, st);
    }
    if (cacheable) {
      this.remember(key, result);
      this.summaries.set(key, summary);
      if (this.summaries.size > MAX_CACHED_SUMMARIES) this.summaries.delete(this.summaries.keys().next().value!);
    }
    return { cells: result, summary };
  }

  /**
   * Per ad set of an owner: its significant edits (pure functions of the recorded history, so
   * back-dating and replays agree), the goal it optimises for, and its learning state at the
   * start of `date`, carried over from the previous day (at most the 7-day window back).
   */
  private learningInputs(owner: BudgetOwner, ads: readonly AdRecord[], intervals: Interval[][], date: string, dayStart: number, asOf: number): Map<string, { edits: number[]; goal: string; state?: LearningState }> {
    const s = this.store.state;
    const byAdset = new Map<string, number[]>();
    ads.forEach((ad, i) => {
      let list = byAdset.get(ad.adset_id);
      if (!list) byAdset.set(ad.adset_id, (list = []));
      list.push(i);
    });
    const out = new Map<string, { edits: number[]; goal: string; state?: LearningState }>();
    const tz = owner.account.timezone_name;
    for (const [adsetId, idx] of byAdset) {
      const edits = significantEdits(idx.map((i) => intervals[i]!), owner.history);
      const goal = s.adsets[adsetId]?.optimization_goal ?? 'LINK_CLICKS';
      let state: LearningState | undefined;
      const last = lastAtOrBefore(edits, dayStart - 1);
      if (last !== undefined) {
        // The state at the end of yesterday, or of the day the window closed when that is earlier.
        let ref = addDays(date, -1);
        const closed = last + LEARNING_WINDOW_MS;
        if (closed < dayStart && localDate(closed, tz) < ref) ref = localDate(closed, tz);
        const prev = ref < localDate(last, tz) ? undefined : this.summaryOf(owner, ref, asOf).learning.get(adsetId);
        state = prev && prev.since === last ? { ...prev } : { since: last, events: 0, status: 'LEARNING', changed_at: last };
      }
      out.set(adsetId, { edits, goal, state });
    }
    return out;
  }

  /** Spend of the owner's earlier days of this calendar week (Sunday first) and their budgets. */
  private weekBefore(owner: BudgetOwner, date: string, asOf: number): { spent: number; allowance: number; daysLeft: number } {
    const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
    const tz = owner.account.timezone_name;
    const started = onIntervals(owner.history)[0]?.[0] ?? Infinity;
    let spent = 0;
    let allowance = 0;
    for (let d = addDays(date, -dow); d < date; d = addDays(d, 1)) {
      const end = startOfLocalDay(addDays(d, 1), tz);
      // Days before the owner first ran allow nothing: the first week is prorated.
      if (end <= started) continue;
      const snap = snapshotAt(owner.history, end - 1);
      allowance += snap?.daily_budget ?? 0;
      spent += this.summaryOf(owner, d, asOf).spend;
    }
    return { spent, allowance, daysLeft: 7 - dow };
  }

  /** Rate multipliers of an ad-hour: learning status of its ad set, and fatigue by delivered days. */
  private drift(t: AdTraits, status: LearningStatus | undefined, ageDays: number): Drift {
    const l = LEARNING_EFFECT[status ?? 'LEARNING'];
    const fatigue = ageDays <= t.freshDays ? 1 : Math.max(t.fatigueFloor, Math.exp(-t.decayPerDay * (ageDays - t.freshDays)));
    if (fatigue === 1 && l === NEUTRAL) return NEUTRAL;
    // A worn creative: fewer clicks, fewer of them buy, and the auction charges more to reach anyone new.
    return { cpm: l.cpm * (1 + 0.4 * (1 - fatigue)), ctr: l.ctr * fatigue, cvr: l.cvr * Math.sqrt(fatigue), noise: l.noise };
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
        // Its own stream, so the traits above stay what they were before fatigue existed.
        ...fatigueTraits(rng(this.seed, 'fatigue', adId)),
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
  private deriveCell(adId: string, slot: number, spend: number, currency: string, videoSeconds: number | undefined, drift: Drift): HourCell {
    const t = this.adTraits(adId);
    const next = rng(this.seed, 'hour', adId, slot);
    const cpmMinor = Math.max(1, usdToMinor(t.cpmUsd * drift.cpm * noise(next, 0.85, 1.15, drift.noise), currency));
    const impressions = stochasticRound((spend / cpmMinor) * 1000, next());
    const clicks = stochasticRound(impressions * t.ctr * drift.ctr * noise(next, 0.8, 1.2, drift.noise), next());
    const link_clicks = stochasticRound(clicks * between(next, 0.65, 0.9), next());
    const landing_page_views = stochasticRound(link_clicks * between(next, 0.6, 0.9), next());
    const purchases = stochasticRound(landing_page_views * t.cvr * drift.cvr * noise(next, 0.7, 1.3, drift.noise), next());
    const checkouts = purchases + stochasticRound(landing_page_views * between(next, 0.03, 0.1), next());
    const purchase_value = this.orderPrices(adId, slot, purchases, currency).reduce((a, b) => a + b, 0);
    const cell: HourCell = { slot, spend, impressions, clicks, link_clicks, landing_page_views, checkouts, purchases, purchase_value };
    if (videoSeconds !== undefined) cell.video = this.deriveVideo(adId, slot, impressions, videoSeconds);
    return cell;
  }
}

/**
 * Hourly noise in [lo, hi), or that range widened `width` times around its middle. Width 1 draws
 * exactly what the model drew before it had dynamics, so figures with dynamics off are unchanged.
 */
function noise(next: () => number, lo: number, hi: number, width: number): number {
  if (width === 1) return between(next, lo, hi);
  const mid = (lo + hi) / 2;
  const half = ((hi - lo) / 2) * width;
  return between(next, Math.max(0.05, mid - half), mid + half);
}

function fatigueTraits(next: () => number): Pick<AdTraits, 'freshDays' | 'decayPerDay' | 'fatigueFloor'> {
  return { freshDays: between(next, 3, 10), decayPerDay: between(next, 0.03, 0.08), fatigueFloor: between(next, 0.4, 0.7) };
}

/** The last instant of a sorted list at or before `at`. */
function lastAtOrBefore(sorted: readonly number[], at: number): number | undefined {
  let found: number | undefined;
  for (const x of sorted) {
    if (x > at) break;
    found = x;
  }
  return found;
}

/**
 * Significant edits of an ad set that restart its learning, from its ads' delivery intervals and
 * its budget owner's history: its first delivery, an ad starting later (a new ad), delivery
 * resuming after 7 days or more, and a budget change by more than 20 % while it runs.
 */
function significantEdits(adIntervals: readonly Interval[][], ownerHistory: readonly DeliverySnapshot[]): number[] {
  const all = adIntervals.flat().sort((a, b) => a[0] - b[0]);
  if (all.length === 0) return [];
  const first = all[0]![0];
  const edits = new Set<number>([first]);
  for (const list of adIntervals) {
    const start = list[0]?.[0];
    if (start !== undefined && start > first + HOUR_MS) edits.add(start);
  }
  let reach = all[0]![1];
  for (const [from, to] of all) {
    if (from - reach >= LEARNING_PAUSE_RESET_MS) edits.add(from);
    reach = Math.max(reach, to);
  }
  let prev: number | undefined;
  for (const snap of ownerHistory) {
    const budget = snap.daily_budget ?? snap.lifetime_budget;
    if (budget === undefined) continue;
    if (prev !== undefined && snap.at > first && Math.abs(budget - prev) > SIGNIFICANT_BUDGET_CHANGE * prev) edits.add(snap.at);
    prev = budget;
  }
  return [...edits].sort((a, b) => a - b);
}

/** The learning state in force at `at`: restarted by an edit, failed once its window ran out. */
function advanceLearning(edits: readonly number[], state: LearningState | undefined, at: number): LearningState | undefined {
  const last = lastAtOrBefore(edits, at);
  if (last === undefined) return undefined;
  let st = state && state.since === last ? state : { since: last, events: 0, status: 'LEARNING' as const, changed_at: last };
  if (st.status === 'LEARNING' && at >= st.since + LEARNING_WINDOW_MS) st = { ...st, status: 'FAIL', changed_at: st.since + LEARNING_WINDOW_MS };
  return st;
}

/** Events of an ad-hour that count for the ad set's optimization goal. */
function optimizationEvents(goal: string, cell: HourCell): number {
  switch (goal) {
    case 'OFFSITE_CONVERSIONS':
    case 'VALUE':
    case 'APP_INSTALLS_AND_OFFSITE_CONVERSIONS':
      return cell.purchases;
    case 'LANDING_PAGE_VIEWS':
      return cell.landing_page_views;
    case 'IMPRESSIONS':
    case 'REACH':
      return cell.impressions;
    case 'THRUPLAY':
      return cell.video?.thruplays ?? 0;
    case 'LINK_CLICKS':
      return cell.link_clicks;
    default:
      return cell.clicks;
  }
}
