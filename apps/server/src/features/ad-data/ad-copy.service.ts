import { both, joinBoth, perLang, type Bilingual } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { AdLevel } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { rateBook } from '../../lib/fx.ts';
import { dayIn } from '../../lib/tz.ts';
import { currencyOffset, toMajor, toMinor } from '../../platform/currency.ts';
import { PlatformError, type AdPlatformClient, type CreativeSpec, type PlatformAd, type PlatformAdSet, type PlatformCampaign } from '../../platform/types.ts';
import { materialsOnAccount, queuePushesTo, type MaterialOnAccount } from '../materials/materials.service.ts';
import { createOpLog, failureText, type OpActor, type OpResult } from './ad-op-log.ts';
import type { createAdSync } from './ad-sync.service.ts';

// Copies that read the source objects and create new ones (issue 7 "Operations"): into another ad
// account — the platform's copies edge stays within one — or with another pixel, conversion event,
// name or budget, which a published ad set cannot take. A campaign brings its ad sets and ads, an
// ad set its ads. In another account the creative's video or image must be there first (pushed
// through the materials library and processed by the platform), its pixel shared with the account
// and its page usable by the tokens that reach it; budgets and bids are converted between the
// currencies at the day's exchange rates (lib/fx.ts). Every object gets its own log row. Before
// each create the target is searched for an object of the same name under the same parent, so a
// retry — after a lost answer, a crash or a person's second attempt — reuses what was made
// instead of making it twice.

type AdSync = ReturnType<typeof createAdSync>;

export interface CopyInput {
  level: AdLevel;
  ids: number[];
  target_ad_account_id?: number;
  /** Target parent (our id): a campaign for ad sets, an ad set for ads. */
  parent_id?: number;
  copies?: number;
  status?: 'ACTIVE' | 'PAUSED';
  rename_suffix?: string;
  name?: string;
  /** Major units of the target account's currency. */
  daily_budget?: number;
  pixel_id?: string;
  custom_event_type?: string;
}

export interface AdCopyDeps {
  db: Db;
  clock: Clock;
  sync: AdSync;
  platform: AdPlatformClient;
  /** The day whose exchange rates convert budgets (default UTC). */
  reportTimezone?: string;
}

interface Account {
  id: number;
  platform_id: string;
  name: string;
  currency: string;
}

interface CampaignSettings {
  objective: string;
  buyingType: string | null;
  specialAdCategories: string[];
  dailyBudgetMinor: number | null;
  lifetimeBudgetMinor: number | null;
  bidStrategy: string | null;
  startTime: Date | null;
  endTime: Date | null;
}

interface AdSetSettings {
  dailyBudgetMinor: number | null;
  lifetimeBudgetMinor: number | null;
  bidAmountMinor: number | null;
  bidStrategy: string | null;
  billingEvent: string | null;
  optimizationGoal: string | null;
  pixelId: string | null;
  customEventType: string | null;
  roasFloor: number | null;
  startTime: Date | null;
  endTime: Date | null;
}

interface AdSettings {
  creativePlatformId: string | null;
  /** Source video ids / image hashes of the creative → our materials, to find them on the target. */
  materialByRef: Record<string, number>;
}

/** One object to create, with what it is made from. */
export interface CopyNode {
  level: AdLevel;
  source: { id: number; platform_id: string; name: string; account: Account };
  target: Account;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  /** Root nodes: the parent on the target (platform id); children get theirs when it exists. */
  parentPlatformId: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** Known before any call: the node (and its children) is not created. */
  problem: Bilingual | null;
  warnings: Bilingual[];
  campaign?: CampaignSettings;
  adset?: AdSetSettings;
  ad?: AdSettings;
  children: CopyNode[];
}

export interface CopyPlan {
  level: AdLevel;
  /** Into another ad account (a task): materials pushed, budgets converted. */
  crossAccount: boolean;
  roots: CopyNode[];
  notes: Bilingual[];
}

/** What the target's live state says (the act reads it; a preview goes by the last sync). */
export interface LiveTarget {
  pixels?: ReadonlySet<string>;
  pages?: ReadonlySet<string>;
}

/** Materials the copy needs on its target: platform refs of those ready, reasons of those that failed, the rest still on their way. */
export interface MaterialsOnTarget {
  refs: Map<number, string>;
  errors: Map<number, Bilingual>;
  waiting: MaterialOnAccount[];
  files: Map<number, string>;
}

const LEVEL_WORD: Record<AdLevel, Bilingual> = { campaign: { zh: '广告系列', en: 'campaign' }, adset: { zh: '广告组', en: 'ad set' }, ad: { zh: '广告', en: 'ad' } };
const GONE = ['DELETED', 'ARCHIVED'];

/** Money as people read it: "USD 20.00", "JPY 3,000". */
export function moneyText(minor: number, currency: string): string {
  const digits = currencyOffset(currency) === 1 ? 0 : 2;
  return `${currency} ${toMajor(minor, currency).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}
const rateText = (rate: number) => String(Number(rate.toPrecision(6)));

/** A failure that says the answer was lost, not that the platform refused: the write may have happened. */
const answerLost = (err: unknown) => err instanceof PlatformError && err.kind === 'unavailable';

class NoRateError extends Error {
  constructor(readonly currency: string) {
    super(`no rate for ${currency}`);
  }
}

/** The job that copies into another ad account (ad-data.jobs.ts). */
export const COPY_JOB = 'copy-ad-objects';

/** Whether a copy within the account must re-create (the copies edge takes no such change). */
export function needsRecreate(input: Pick<CopyInput, 'level' | 'pixel_id' | 'custom_event_type' | 'name' | 'daily_budget'>): boolean {
  const pixel = input.pixel_id !== undefined || input.custom_event_type !== undefined;
  if (input.level === 'campaign') return pixel;
  if (input.level === 'adset') return pixel || input.name !== undefined || input.daily_budget !== undefined;
  return input.name !== undefined;
}

/** The copy engine: plan (also the confirmation), wait for materials, create. */
export function createAdCopier({ db, clock, sync, platform, reportTimezone = 'UTC' }: AdCopyDeps) {
  const log = createOpLog({ db, clock });

  async function accountsById(ids: readonly number[]): Promise<Map<number, Account>> {
    const rows = await db.selectFrom('ad_accounts').select(['id', 'platform_id', 'name', 'currency']).where('id', 'in', ids.length ? [...new Set(ids)] : [0]).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Pixels shared with the account and pages the tokens reaching it may use, as last synced. */
  async function syncedAssets(accountId: number) {
    const [pixels, pages] = await Promise.all([
      db.selectFrom('pixels as p').innerJoin('pixel_ad_accounts as pa', 'pa.pixel_id', 'p.id').select('p.platform_id').where('pa.ad_account_id', '=', accountId).execute(),
      db
        .selectFrom('personal_account_pages as pp')
        .innerJoin('pages as pg', 'pg.id', 'pp.page_id')
        .innerJoin('personal_account_ad_accounts as l', 'l.personal_account_id', 'pp.personal_account_id')
        .innerJoin('personal_accounts as pa', 'pa.id', 'pp.personal_account_id')
        .select('pg.platform_id')
        .where('l.ad_account_id', '=', accountId)
        .where('l.reachable', '=', true)
        .where('pp.reachable', '=', true)
        .where('pa.deleted_at', 'is', null)
        .where('pa.status', '!=', 'invalid')
        .execute(),
    ]);
    return { pixels: new Set(pixels.map((p) => p.platform_id)), pages: new Set(pages.map((p) => p.platform_id)) };
  }

  /** Our materials behind the source accounts' video ids and image hashes (pushed through the library). */
  async function materialsOfRefs(pairs: { accountId: number; ref: string }[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const byAccount = new Map<number, string[]>();
    for (const p of pairs) byAccount.set(p.accountId, [...(byAccount.get(p.accountId) ?? []), p.ref]);
    for (const [accountId, refs] of byAccount) {
      const rows = await db.selectFrom('material_pushes').select(['material_id', 'platform_ref']).where('ad_account_id', '=', accountId).where('platform_ref', 'in', [...new Set(refs)]).execute();
      for (const r of rows) if (r.platform_ref) out.set(`${accountId}:${r.platform_ref}`, r.material_id);
    }
    return out;
  }

  /**
   * What the copy will create, from the mirror: one tree per source and copy, names, budgets and
   * bids in the target currency, pixels and events, the materials each ad needs there, and the
   * refusals known before any call (pixel not shared, page not usable, material not in the library,
   * no exchange rate, no budget holder). `live` replaces the synced pixels and pages (the act).
   */
  async function plan(input: CopyInput, live: LiveTarget = {}): Promise<CopyPlan> {
    const ids = [...new Set(input.ids)];
    const level = input.level;
    const copies = Math.min(20, Math.max(1, input.copies ?? 1));
    const status = input.status ?? 'PAUSED';

    // The mirror: sources and everything under them that still runs or may run.
    const campaigns = await db
      .selectFrom('ad_campaigns')
      .select(['id', 'platform_id', 'name', 'ad_account_id', 'objective', 'buying_type', 'special_ad_categories', 'budget_level', 'daily_budget_minor', 'lifetime_budget_minor', 'bid_strategy', 'start_time', 'end_time', 'currency'])
      .where('id', 'in', level === 'campaign' ? ids : [0])
      .execute();
    const adsetCols = ['s.id', 's.platform_id', 's.name', 's.ad_account_id', 's.campaign_id', 's.status', 's.daily_budget_minor', 's.lifetime_budget_minor', 's.bid_strategy', 's.bid_amount_minor', 's.roas_floor', 's.billing_event', 's.optimization_goal', 's.pixel_id', 's.custom_event_type', 's.start_time', 's.end_time', 's.currency', 'c.budget_level', 'c.name as campaign_name'] as const;
    let adsetQuery = db.selectFrom('ad_sets as s').innerJoin('ad_campaigns as c', 'c.id', 's.campaign_id').select(adsetCols);
    adsetQuery =
      level === 'campaign'
        ? adsetQuery.where('s.campaign_id', 'in', ids).where('s.deleted_at', 'is', null).where('s.status', 'not in', GONE)
        : level === 'adset'
          ? adsetQuery.where('s.id', 'in', ids)
          : adsetQuery.where('s.id', '=', 0);
    // Children in the order they were made on the platform (ids grow), as they will be made again.
    const made = <T extends { platform_id: string }>(rows: T[]) => rows.sort((a, b) => a.platform_id.length - b.platform_id.length || a.platform_id.localeCompare(b.platform_id));
    const adsets = made(await adsetQuery.execute());
    let adQuery = db.selectFrom('ads').select(['id', 'platform_id', 'name', 'ad_account_id', 'adset_id', 'status', 'creative_platform_id']);
    adQuery =
      level === 'ad'
        ? adQuery.where('id', 'in', ids)
        : adQuery.where('adset_id', 'in', adsets.length ? adsets.map((s) => s.id) : [0]).where('deleted_at', 'is', null).where('status', 'not in', GONE);
    const ads = made(await adQuery.execute());
    const creativeIds = [...new Set(ads.map((a) => a.creative_platform_id).filter((c): c is string => !!c))];
    const creatives = new Map(
      (await db.selectFrom('ad_creatives').select(['platform_id', 'ad_account_id', 'video_platform_id', 'image_hash', 'page_id', 'object_story_id']).where('platform_id', 'in', creativeIds.length ? creativeIds : ['']).execute()).map((c) => [c.platform_id, c]),
    );

    const sourceAccountIds = [...campaigns, ...adsets, ...ads].map((r) => r.ad_account_id);
    const accounts = await accountsById([...sourceAccountIds, ...(input.target_ad_account_id ? [input.target_ad_account_id] : [])]);
    const targetAccount = input.target_ad_account_id ? accounts.get(input.target_ad_account_id) : undefined;
    if (input.target_ad_account_id && !targetAccount) throw new AppError('AD_OBJECT_NOT_FOUND');
    const crossAccount = !!targetAccount && sourceAccountIds.some((a) => a !== targetAccount.id);

    // The parent the roots go under (ad sets: a campaign; ads: an ad set); default the source's own.
    const parentLevel = level === 'adset' ? 'campaign' : level === 'ad' ? 'adset' : null;
    let chosenParent: { id: number; platform_id: string; name: string; ad_account_id: number; holdsBudget: boolean } | undefined;
    if (input.parent_id !== undefined && parentLevel === 'campaign') {
      const c = await db.selectFrom('ad_campaigns').select(['id', 'platform_id', 'name', 'ad_account_id', 'budget_level']).where('id', '=', input.parent_id).executeTakeFirst();
      if (c) chosenParent = { ...c, holdsBudget: c.budget_level === 'campaign' };
    } else if (input.parent_id !== undefined && parentLevel === 'adset') {
      const s = await db.selectFrom('ad_sets').select(['id', 'platform_id', 'name', 'ad_account_id']).where('id', '=', input.parent_id).executeTakeFirst();
      if (s) chosenParent = { ...s, holdsBudget: false };
    }
    if (input.parent_id !== undefined && !chosenParent) throw new AppError('AD_OBJECT_NOT_FOUND');
    if (crossAccount && parentLevel && !chosenParent) throw new AppError('AD_COPY_PARENT_REQUIRED', { account: targetAccount!.name, level: LEVEL_WORD[parentLevel] });
    if (chosenParent && targetAccount && chosenParent.ad_account_id !== targetAccount.id) throw new AppError('AD_COPY_PARENT_ACCOUNT', { account: targetAccount.name, level: LEVEL_WORD[parentLevel!] });

    // Exchange rates of the day (report zone) for the currencies involved.
    const day = dayIn(clock.now().getTime(), reportTimezone);
    const rateOf = await rateBook(db, [...new Set([...accounts.values()].map((a) => a.currency))]);
    const converted: { from: string; to: string; amounts: string[] }[] = [];
    const convert = (minor: number | null, from: string, to: string, note = true): number | null => {
      if (minor === null || from === to) return minor;
      const a = rateOf(from, day);
      const b = rateOf(to, day);
      if (!a) throw new NoRateError(from);
      if (!b) throw new NoRateError(to);
      const out = Math.max(1, toMinor((minor / currencyOffset(from) / a) * b, to));
      if (note) {
        let entry = converted.find((c) => c.from === from && c.to === to);
        if (!entry) converted.push((entry = { from, to, amounts: [] }));
        entry.amounts.push(`${moneyText(minor, from)} → ${moneyText(out, to)}`);
      }
      return out;
    };

    const synced = crossAccount ? await syncedAssets(targetAccount!.id) : { pixels: new Set<string>(), pages: new Set<string>() };
    const pixels = live.pixels ?? synced.pixels;
    const pages = live.pages ?? synced.pages;
    const refMaterials = crossAccount
      ? await materialsOfRefs(
          [...creatives.values()].flatMap((c) => [c.video_platform_id, c.image_hash].filter((r): r is string => !!r).map((ref) => ({ accountId: c.ad_account_id, ref }))),
        )
      : new Map<string, number>();

    // Names: a copy in the same account says so; several copies of one name are numbered, so each
    // is told apart from the others (and from what an earlier attempt made) by its name.
    const used = new Map<string, number>();
    const nameOf = (sourceName: string, sameAccount: boolean) => {
      const base = `${input.name ?? sourceName}${input.rename_suffix ?? (sameAccount ? ' - Copy' : '')}`;
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      return n === 1 ? base : `${base} ${n}`;
    };

    const guard = <T>(node: CopyNode, fn: () => T): T | null => {
      try {
        return fn();
      } catch (err) {
        if (!(err instanceof NoRateError)) throw err;
        node.problem ??= both('AD_COPY_NO_RATE', { currency: err.currency });
        return null;
      }
    };

    const node = (lvl: AdLevel, src: { id: number; platform_id: string; name: string; ad_account_id: number }, target: Account, name: string, parentPlatformId: string | null): CopyNode => {
      const account = accounts.get(src.ad_account_id)!;
      const cross = account.id !== target.id;
      return {
        level: lvl,
        source: { id: src.id, platform_id: src.platform_id, name: src.name, account },
        target,
        name,
        status,
        parentPlatformId,
        before: { source_id: src.platform_id, name: src.name, ...(cross && { ad_account: account.platform_id }) },
        after: { ...(cross && { ad_account: target.platform_id }), name, status },
        problem: null,
        warnings: [],
        children: [],
      };
    };

    /** Budget fields of before → after; the after side in the target currency. */
    const budgetFields = (n: CopyNode, from: { daily: number | null; lifetime: number | null; currency: string }, to: { daily: number | null; lifetime: number | null }) => {
      if (from.daily !== null || to.daily !== null) {
        n.before.daily_budget_minor = from.daily;
        n.after.daily_budget_minor = to.daily;
      }
      if (from.lifetime !== null || to.lifetime !== null) {
        n.before.lifetime_budget_minor = from.lifetime;
        n.after.lifetime_budget_minor = to.lifetime;
      }
      if ('daily_budget_minor' in n.after || 'lifetime_budget_minor' in n.after) {
        n.before.currency = from.currency;
        n.after.currency = n.target.currency;
      }
    };

    const buildAd = (a: (typeof ads)[number], target: Account, name: string, parentPlatformId: string | null): CopyNode => {
      const n = node('ad', a, target, name, parentPlatformId);
      const cross = n.source.account.id !== target.id;
      const materialByRef: Record<string, number> = {};
      const creative = a.creative_platform_id ? creatives.get(a.creative_platform_id) : undefined;
      if (!a.creative_platform_id) n.problem = both('AD_COPY_NO_CREATIVE', { name: a.name });
      else if (cross && creative) {
        const mat = (ref: string | null) => (ref ? refMaterials.get(`${creative.ad_account_id}:${ref}`) : undefined);
        const video = mat(creative.video_platform_id);
        const image = mat(creative.image_hash);
        if (creative.video_platform_id && video === undefined) n.problem = both('AD_COPY_MATERIAL_MISSING', { name: a.name, kind: { zh: '视频', en: 'video' }, account: target.name });
        else if (!creative.video_platform_id && creative.image_hash && image === undefined) n.problem = both('AD_COPY_MATERIAL_MISSING', { name: a.name, kind: { zh: '图片', en: 'image' }, account: target.name });
        else if (creative.page_id && !pages.has(creative.page_id)) n.problem = both('AD_COPY_PAGE_NOT_ACCESSIBLE', { page: creative.page_id, account: target.name });
        if (creative.video_platform_id && video !== undefined) materialByRef[creative.video_platform_id] = video;
        // A video's thumbnail from the library when it came from there; otherwise the video's own still.
        if (creative.image_hash && image !== undefined) materialByRef[creative.image_hash] = image;
      }
      n.ad = { creativePlatformId: a.creative_platform_id, materialByRef };
      return n;
    };

    const buildAdSet = (s: (typeof adsets)[number], target: Account, name: string, parentPlatformId: string | null, parent: { holdsBudget: boolean; name: string; root: boolean }): CopyNode => {
      const n = node('adset', s, target, name, parentPlatformId);
      const from = n.source.account.currency;
      const to = target.currency;
      guard(n, () => {
        let daily: number | null = null;
        let lifetime: number | null = null;
        if (parent.holdsBudget) {
          if (parent.root && (s.daily_budget_minor !== null || s.lifetime_budget_minor !== null || input.daily_budget !== undefined)) n.warnings.push(both('AD_COPY_BUDGET_DROPPED', { campaign: parent.name }));
        } else if (input.daily_budget !== undefined && (level === 'adset' || level === 'campaign')) {
          daily = toMinor(input.daily_budget, to);
        } else {
          daily = convert(s.daily_budget_minor, from, to);
          lifetime = convert(s.lifetime_budget_minor, from, to);
          if (daily === null && lifetime === null) n.problem = both('AD_COPY_NEEDS_BUDGET', { campaign: parent.name, name: s.name });
        }
        budgetFields(n, { daily: s.daily_budget_minor, lifetime: s.lifetime_budget_minor, currency: from }, { daily, lifetime });
        const bid = convert(s.bid_amount_minor, from, to, false);
        if (bid !== null) {
          n.before.bid_amount_minor = s.bid_amount_minor;
          n.after.bid_amount_minor = bid;
          n.before.currency = from;
          n.after.currency = to;
        }
        const pixel = input.pixel_id ?? s.pixel_id;
        const event = input.custom_event_type ?? s.custom_event_type ?? (pixel ? 'PURCHASE' : null);
        if (pixel !== s.pixel_id) n.before.pixel_id = s.pixel_id;
        if (event !== s.custom_event_type) n.before.custom_event_type = s.custom_event_type;
        if (pixel) n.after.pixel_id = pixel;
        if (event) n.after.custom_event_type = event;
        if (pixel && n.source.account.id !== target.id && !pixels.has(pixel)) n.problem ??= both('AD_COPY_PIXEL_NOT_SHARED', { pixel, account: target.name });
        n.adset = {
          dailyBudgetMinor: daily,
          lifetimeBudgetMinor: lifetime,
          bidAmountMinor: bid,
          bidStrategy: s.bid_strategy,
          billingEvent: s.billing_event,
          optimizationGoal: s.optimization_goal,
          pixelId: pixel,
          customEventType: event,
          roasFloor: s.roas_floor,
          startTime: s.start_time && s.start_time > clock.now() ? s.start_time : null,
          endTime: s.end_time,
        };
      });
      for (const a of ads.filter((x) => x.adset_id === s.id)) n.children.push(buildAd(a, target, a.name, null));
      return n;
    };

    const roots: CopyNode[] = [];
    const orderOf = (id: number) => ids.indexOf(id);
    if (level === 'campaign') {
      for (const c of [...campaigns].sort((a, b) => orderOf(a.id) - orderOf(b.id))) {
        const target = targetAccount ?? accounts.get(c.ad_account_id)!;
        for (let k = 0; k < copies; k++) {
          const n = node('campaign', c, target, nameOf(c.name, c.ad_account_id === target.id), null);
          const cbo = c.budget_level === 'campaign';
          guard(n, () => {
            const from = n.source.account.currency;
            const daily = cbo ? (input.daily_budget !== undefined ? toMinor(input.daily_budget, target.currency) : convert(c.daily_budget_minor, from, target.currency)) : null;
            const lifetime = cbo && input.daily_budget === undefined ? convert(c.lifetime_budget_minor, from, target.currency) : null;
            if (cbo) budgetFields(n, { daily: c.daily_budget_minor, lifetime: c.lifetime_budget_minor, currency: from }, { daily, lifetime });
            n.campaign = {
              objective: c.objective ?? 'OUTCOME_SALES',
              buyingType: c.buying_type,
              specialAdCategories: c.special_ad_categories,
              dailyBudgetMinor: daily,
              lifetimeBudgetMinor: lifetime,
              bidStrategy: c.bid_strategy,
              startTime: c.start_time && c.start_time > clock.now() ? c.start_time : null,
              endTime: c.end_time,
            };
          });
          for (const s of adsets.filter((x) => x.campaign_id === c.id)) n.children.push(buildAdSet(s, target, s.name, null, { holdsBudget: cbo, name: n.name, root: false }));
          roots.push(n);
        }
      }
    } else if (level === 'adset') {
      const parents = new Map((await db.selectFrom('ad_campaigns').select(['id', 'platform_id', 'name', 'budget_level']).where('id', 'in', adsets.length ? adsets.map((s) => s.campaign_id) : [0]).execute()).map((c) => [c.id, c]));
      for (const s of [...adsets].sort((a, b) => orderOf(a.id) - orderOf(b.id))) {
        const target = targetAccount ?? accounts.get(s.ad_account_id)!;
        const own = parents.get(s.campaign_id)!;
        const parent = chosenParent ?? { platform_id: own.platform_id, name: own.name, holdsBudget: own.budget_level === 'campaign' };
        for (let k = 0; k < copies; k++) {
          roots.push(buildAdSet(s, target, nameOf(s.name, s.ad_account_id === target.id), parent.platform_id, { holdsBudget: parent.holdsBudget, name: parent.name, root: true }));
        }
      }
    } else {
      const parents = new Map((await db.selectFrom('ad_sets').select(['id', 'platform_id']).where('id', 'in', ads.length ? ads.map((a) => a.adset_id) : [0]).execute()).map((s) => [s.id, s.platform_id]));
      for (const a of [...ads].sort((x, y) => orderOf(x.id) - orderOf(y.id))) {
        const target = targetAccount ?? accounts.get(a.ad_account_id)!;
        for (let k = 0; k < copies; k++) roots.push(buildAd(a, target, nameOf(a.name, a.ad_account_id === target.id), chosenParent?.platform_id ?? parents.get(a.adset_id)!));
      }
    }

    // A root whose name is already taken under its parent (by the mirror) is reused, not made twice.
    for (const r of roots) {
      const taken =
        r.level === 'campaign'
          ? await db.selectFrom('ad_campaigns').select('id').where('ad_account_id', '=', r.target.id).where('name', '=', r.name).where('deleted_at', 'is', null).executeTakeFirst()
          : r.level === 'adset'
            ? await db.selectFrom('ad_sets as s').innerJoin('ad_campaigns as c', 'c.id', 's.campaign_id').select('s.id').where('c.platform_id', '=', r.parentPlatformId!).where('s.name', '=', r.name).where('s.deleted_at', 'is', null).executeTakeFirst()
            : await db.selectFrom('ads as a').innerJoin('ad_sets as s', 's.id', 'a.adset_id').select('a.id').where('s.platform_id', '=', r.parentPlatformId!).where('a.name', '=', r.name).where('a.deleted_at', 'is', null).executeTakeFirst();
      if (taken) r.warnings.push(both('AD_COPY_EXISTS', { level: LEVEL_WORD[r.level], name: r.name }));
    }

    const notes: Bilingual[] = [];
    for (const c of converted) {
      const a = rateOf(c.from, day)!;
      const b = rateOf(c.to, day)!;
      const more = c.amounts.length > 5 ? perLang((l) => (l === 'zh' ? `等 ${c.amounts.length} 项` : `and ${c.amounts.length - 5} more`)) : '';
      notes.push(both('AD_COPY_CONVERTED', { from: c.from, to: c.to, fromRate: rateText(a), toRate: rateText(b), day, amounts: joinBoth([...c.amounts.slice(0, 5), more]) }));
    }
    return { level, crossAccount, roots, notes };
  }

  const walk = (nodes: readonly CopyNode[]): CopyNode[] => nodes.flatMap((n) => [n, ...walk(n.children)]);

  /** Materials the plan's ads need on the target (ads without a refusal). */
  function neededMaterials(p: CopyPlan): number[] {
    const out = new Set<number>();
    const visit = (n: CopyNode) => {
      if (n.problem) return;
      if (n.ad && n.source.account.id !== n.target.id) for (const m of Object.values(n.ad.materialByRef)) out.add(m);
      n.children.forEach(visit);
    };
    p.roots.forEach(visit);
    return [...out];
  }

  /** The confirmation: one row per object to create (refused ones with the reason), and the notes. */
  async function preview(p: CopyPlan): Promise<{ results: OpResult[]; notes: Bilingual[] }> {
    const notes = [...p.notes];
    const target = p.roots[0]?.target;
    const needed = neededMaterials(p);
    if (target && needed.length) {
      const states = await materialsOnAccount(db, needed, target.id);
      const missing = states.filter((m) => m.state !== 'ready');
      if (missing.length) notes.push(both('AD_COPY_WILL_PUSH', { count: missing.length, account: target.name, files: missing.map((m) => m.file_name).join(', ') }));
    }
    const results: OpResult[] = [];
    const visit = (n: CopyNode, inherited: Bilingual | null) => {
      const error = n.problem ?? inherited;
      results.push({ level: n.level, id: n.source.id, platform_id: n.source.platform_id, name: n.name, ad_account_id: n.target.id, before: n.before, after: n.after, result: error ? 'failed' : 'preview', error, warnings: n.warnings, operation_id: null });
      for (const c of n.children) visit(c, error ? both('AD_COPY_PARENT_FAILED', { level: LEVEL_WORD[n.level], name: n.name }) : null);
    };
    for (const r of p.roots) visit(r, null);
    return { results, notes };
  }

  /** The target's pixels and pages as the platform says now (one call each); absent when it cannot say. */
  async function liveTarget(accountId: number): Promise<LiveTarget> {
    const account = (await accountsById([accountId])).get(accountId);
    if (!account) return {};
    const out: LiveTarget = {};
    try {
      out.pixels = new Set((await sync.withToken(accountId, (token) => platform.listPixels(token, [account.platform_id]))).map((p) => p.id));
    } catch {
      // The create call is refused with the platform's own words if the pixel is not there.
    }
    try {
      out.pages = new Set((await sync.withToken(accountId, (token) => platform.listPages(token))).map((p) => p.id));
    } catch {
      // Likewise for the page.
    }
    return out;
  }

  /**
   * Gets the needed materials onto the target: queues pushes of those never pushed or failed
   * (`queue`), then waits — at most `waitMs` of real time — for the uploads and for the platform to
   * process the videos, asking it about each video still processing. What is not ready by then is
   * `waiting` (the caller continues later).
   */
  async function awaitMaterials(
    p: CopyPlan,
    opts: { enqueue?: Jobs['enqueue']; userId: number; queue: boolean; waitMs: number; pollMs: number; signal?: AbortSignal; sleep: (ms: number, signal?: AbortSignal) => Promise<void>; onWait?: (waiting: MaterialOnAccount[]) => Promise<void> },
  ): Promise<MaterialsOnTarget> {
    const out: MaterialsOnTarget = { refs: new Map(), errors: new Map(), waiting: [], files: new Map() };
    const target = p.roots[0]?.target;
    const needed = neededMaterials(p);
    if (!target || !needed.length) return out;
    let states = await materialsOnAccount(db, needed, target.id);
    for (const m of states) out.files.set(m.material_id, m.file_name);
    if (opts.queue && opts.enqueue && states.some((m) => m.state === 'none' || m.state === 'failed')) {
      await queuePushesTo(db, opts.enqueue, { materialIds: states.filter((m) => m.state === 'none' || m.state === 'failed').map((m) => m.material_id), adAccountId: target.id, userId: opts.userId, now: clock.now() });
      states = await materialsOnAccount(db, needed, target.id);
    }
    const deadline = performance.now() + opts.waitMs;
    for (;;) {
      opts.signal?.throwIfAborted();
      out.waiting = [];
      for (const m of states) {
        if (out.refs.has(m.material_id) || out.errors.has(m.material_id)) continue;
        if (m.state === 'ready' && m.platform_ref) out.refs.set(m.material_id, m.platform_ref);
        else if (m.state === 'failed') out.errors.set(m.material_id, both('AD_COPY_PUSH_FAILED', { file: m.file_name, account: target.name, reason: m.error ?? '' }));
        else if (m.state === 'none') out.errors.set(m.material_id, both('AD_COPY_PUSH_NOT_READY', { file: m.file_name, account: target.name }));
        else if (m.state === 'processing' && m.platform_ref && m.kind === 'video') {
          // Ready on the platform before the push job's next look: usable now.
          const video = await sync.withToken(target.id, (token) => platform.getAdVideo(token, m.platform_ref!, { signal: opts.signal })).catch(() => null);
          if (video?.status === 'ready') out.refs.set(m.material_id, m.platform_ref);
          else if (video?.status === 'error' || video?.status === 'expired') out.errors.set(m.material_id, both('AD_COPY_PUSH_FAILED', { file: m.file_name, account: target.name, reason: video.errorMessage ?? video.status }));
          else out.waiting.push(m);
        } else out.waiting.push(m);
      }
      if (!out.waiting.length || performance.now() >= deadline) return out;
      await opts.onWait?.(out.waiting);
      await opts.sleep(opts.pollMs, opts.signal);
      states = await materialsOnAccount(db, out.waiting.map((m) => m.material_id), target.id);
    }
  }

  /**
   * Creates the plan's objects top-down, each logged pending → ok | failed. Before each create the
   * target is searched for the same name under the same parent (what an earlier attempt made is
   * reused); a create whose answer was lost is looked for again before it counts as failed. The
   * mirror of the target is re-read at the end.
   */
  async function execute(
    p: CopyPlan,
    actor: OpActor,
    batchId: string,
    opts: { materials?: MaterialsOnTarget; signal?: AbortSignal; progress?: (done: number, total: number, name: string) => Promise<void> } = {},
  ): Promise<OpResult[]> {
    const results: OpResult[] = [];
    const total = walk(p.roots).length;
    const listed = new Map<string, { id: string; name: string; pixelId: string | null; event: string | null }[]>();
    // The sources themselves are never "what an earlier attempt made" (a copy in place keeping the name).
    const taken = new Set<string>(walk(p.roots).map((n) => n.source.platform_id));
    const fresh = new Set<string>();
    const specs = new Map<string, Promise<Awaited<ReturnType<AdPlatformClient['getAdSetSpec']>>>>();
    const madeCreatives = new Map<string, string>();
    // A job retried after a crash runs the same batch again: what the earlier attempt made and
    // logged is gone on from without a second ("reused") row, a row it left pending is finished,
    // a refusal it logged is not logged twice; a failed create is tried again (a new fact, its own row).
    const earlier = new Map<string, Awaited<ReturnType<typeof log.ofBatch>>>();
    const nodeKey = (level: AdLevel, source: string, account: number, name: unknown, parent: unknown) => JSON.stringify([level, source, account, name ?? null, parent ?? null]);
    for (const r of await log.ofBatch(batchId, 'copy')) {
      const key = nodeKey(r.level, r.object_platform_id, r.ad_account_id, r.after.name, r.after.parent);
      earlier.set(key, [...(earlier.get(key) ?? []), r]);
    }
    /** The earlier attempt's last row of this node (its name under this parent), claimed once. */
    const claimEarlier = (n: CopyNode, parentId: string | null) => {
      const rows = earlier.get(nodeKey(n.level, n.source.platform_id, n.target.id, n.after.name, parentId));
      const last = rows?.at(-1);
      earlier.delete(nodeKey(n.level, n.source.platform_id, n.target.id, n.after.name, parentId));
      return last;
    };

    /** Live objects of `name` under the parent, not yet claimed by another node of this run. */
    async function findExisting(n: CopyNode, parentId: string | null, again = false): Promise<string | null> {
      if (parentId && fresh.has(parentId) && !again) return null;
      const act = n.target.platform_id;
      const key = n.level === 'campaign' ? `campaign:${act}:${n.name}` : `${n.level}:${parentId}`;
      let list = again ? undefined : listed.get(key);
      if (!list) {
        const found = await sync.withToken(n.target.id, (token): Promise<(PlatformCampaign | PlatformAdSet | PlatformAd)[]> =>
          n.level === 'campaign'
            ? platform.listCampaigns(token, act, { name: n.name, signal: opts.signal })
            : n.level === 'adset'
              ? platform.listAdSets(token, act, { campaignIds: [parentId!], signal: opts.signal })
              : platform.listAds(token, act, { adsetIds: [parentId!], signal: opts.signal }),
        );
        list = found.filter((o) => !GONE.includes(o.status)).map((o) => ({ id: o.id, name: o.name, pixelId: 'pixelId' in o ? o.pixelId : null, event: 'customEventType' in o ? o.customEventType : null }));
        // Oldest first, so repeated names are claimed in the order they were made.
        list.sort((a, b) => (a.id.length - b.id.length) || a.id.localeCompare(b.id));
        listed.set(key, list);
      }
      // An ad set of that name optimising for another pixel or event is another copy, not this one.
      const same = (o: (typeof list)[number]) => n.level !== 'adset' || (o.pixelId === (n.adset?.pixelId ?? null) && (!o.pixelId || o.event === (n.adset?.customEventType ?? null)));
      const hit = list.find((o) => o.name === n.name && !taken.has(o.id) && same(o));
      if (!hit) return null;
      taken.add(hit.id);
      return hit.id;
    }

    async function creativeFor(n: CopyNode): Promise<string> {
      const source = n.ad!.creativePlatformId!;
      if (n.source.account.id === n.target.id) return source;
      const made = madeCreatives.get(source);
      if (made) return made;
      const spec: CreativeSpec = await sync.withToken(n.source.account.id, (token) => platform.getCreativeSpec(token, source, { signal: opts.signal }));
      const refOf = (ref: string | null) => {
        if (!ref) return null;
        const material = n.ad!.materialByRef[ref];
        return material === undefined ? null : (opts.materials?.refs.get(material) ?? null);
      };
      const copy: CreativeSpec = { ...spec };
      if (spec.kind === 'video') {
        copy.videoId = refOf(spec.videoId);
        if (!copy.videoId) throw new AppError('AD_COPY_MATERIAL_MISSING', { name: n.source.name, kind: { zh: '视频', en: 'video' }, account: n.target.name });
        copy.imageHash = refOf(spec.imageHash);
        if (!copy.imageHash) {
          const still = spec.imageUrl ?? (await sync.withToken(n.target.id, (token) => platform.getAdVideo(token, copy.videoId!, { signal: opts.signal }))).pictureUrl;
          copy.imageUrl = still;
        }
      } else if (spec.kind === 'link' || spec.kind === 'photo') {
        copy.imageHash = spec.imageHash ? refOf(spec.imageHash) : null;
        if (spec.imageHash && !copy.imageHash) throw new AppError('AD_COPY_MATERIAL_MISSING', { name: n.source.name, kind: { zh: '图片', en: 'image' }, account: n.target.name });
      }
      const { id } = await sync.withToken(n.target.id, (token) => platform.createAdCreative(token, n.target.platform_id, copy, { signal: opts.signal }));
      madeCreatives.set(source, id);
      return id;
    }

    async function create(n: CopyNode, parentId: string | null): Promise<string> {
      const act = n.target.platform_id;
      if (n.level === 'campaign') {
        const c = n.campaign!;
        return (await sync.withToken(n.target.id, (token) => platform.createCampaign(token, act, { name: n.name, status: n.status, ...c }, { signal: opts.signal }))).id;
      }
      if (n.level === 'adset') {
        const s = n.adset!;
        let spec = specs.get(n.source.platform_id);
        if (!spec) specs.set(n.source.platform_id, (spec = sync.withToken(n.source.account.id, (token) => platform.getAdSetSpec(token, n.source.platform_id, { signal: opts.signal }))));
        const read = await spec;
        return (
          await sync.withToken(n.target.id, (token) =>
            platform.createAdSet(
              token,
              act,
              {
                campaignId: parentId!,
                name: n.name,
                status: n.status,
                dailyBudgetMinor: s.dailyBudgetMinor,
                lifetimeBudgetMinor: s.lifetimeBudgetMinor,
                bidAmountMinor: s.bidAmountMinor,
                bidStrategy: s.bidStrategy,
                billingEvent: read.billingEvent ?? s.billingEvent ?? 'IMPRESSIONS',
                optimizationGoal: read.optimizationGoal ?? s.optimizationGoal ?? 'OFFSITE_CONVERSIONS',
                promotedObject: s.pixelId ? { pixelId: s.pixelId, customEventType: s.customEventType ?? 'PURCHASE' } : null,
                targeting: read.targeting,
                // As read from the source ad set: the platform's own [{event_type, window_days}].
                attributionSpec: Array.isArray(read.attributionSpec) ? (read.attributionSpec as { event_type: string; window_days: number }[]) : null,
                roasFloor: s.roasFloor,
                startTime: s.startTime,
                endTime: s.endTime,
              },
              { signal: opts.signal },
            ),
          )
        ).id;
      }
      const creativeId = await creativeFor(n);
      return (await sync.withToken(n.target.id, (token) => platform.createAd(token, act, { adsetId: parentId!, name: n.name, status: n.status, creativeId }, { signal: opts.signal }))).id;
    }

    /** A material the ad needs that is not on the target: why. */
    function materialProblem(n: CopyNode): Bilingual | null {
      if (!n.ad || n.source.account.id === n.target.id) return null;
      for (const m of Object.values(n.ad.materialByRef)) {
        const error = opts.materials?.errors.get(m);
        if (error) return error;
        if (!opts.materials?.refs.has(m)) return both('AD_COPY_PUSH_NOT_READY', { file: opts.materials?.files.get(m) ?? `#${m}`, account: n.target.name });
      }
      return null;
    }

    const object = (n: CopyNode) => ({ id: n.source.id, platform_id: n.source.platform_id, name: n.source.name, ad_account_id: n.target.id });
    const row = (n: CopyNode, after: Record<string, unknown>, result: 'ok' | 'failed', error: Bilingual | null, operationId: number): OpResult => ({
      level: n.level,
      id: n.source.id,
      platform_id: n.source.platform_id,
      name: n.name,
      ad_account_id: n.target.id,
      before: n.before,
      after,
      result,
      error,
      warnings: n.warnings,
      operation_id: operationId,
    });

    async function refuse(n: CopyNode, error: Bilingual) {
      const prior = claimEarlier(n, null);
      if (prior?.result === 'failed' && prior.error_en === error.en) {
        results.push(row(n, prior.after, 'failed', error, prior.id));
      } else {
        const opId = prior?.result === 'pending' ? prior.id : await log.begin(actor, batchId, 'copy', n.level, object(n), n.before, n.after);
        await log.finish(opId, 'failed', error);
        results.push(row(n, n.after, 'failed', error, opId));
      }
      const child = both('AD_COPY_PARENT_FAILED', { level: LEVEL_WORD[n.level], name: n.name });
      for (const c of n.children) await refuse(c, child);
    }

    async function run(n: CopyNode, parentId: string | null) {
      opts.signal?.throwIfAborted();
      await opts.progress?.(results.length, total, n.name);
      const problem = n.problem ?? materialProblem(n);
      if (problem) return refuse(n, problem);
      const after = { ...n.after, ...(parentId && n.level !== 'campaign' && { parent: parentId }) };
      const prior = claimEarlier(n, (after as { parent?: string }).parent ?? null);
      if (prior?.result === 'ok' && typeof prior.after.copied_id === 'string') {
        // Made (or reused) and logged by the earlier attempt: go on under it without a second row.
        const id = prior.after.copied_id;
        taken.add(id);
        results.push(row(n, prior.after, 'ok', null, prior.id));
        for (const c of n.children) await run(c, id);
        return;
      }
      // No earlier row, one the crash left pending (finished here), or a failed one (tried again).
      const opId = prior?.result === 'pending' ? prior.id : await log.begin(actor, batchId, 'copy', n.level, object(n), n.before, after);
      let id: string;
      let reused = false;
      try {
        const existing = await findExisting(n, parentId);
        if (existing) {
          id = existing;
          reused = true;
        } else {
          try {
            id = await create(n, parentId);
          } catch (err) {
            // The answer was lost: the object may exist. Found by its name, it is this one.
            const made = answerLost(err) ? await findExisting(n, parentId, true).catch(() => null) : null;
            if (!made) throw err;
            id = made;
          }
          fresh.add(id);
        }
      } catch (err) {
        const text = failureText(err);
        await log.finish(opId, 'failed', text);
        results.push(row(n, after, 'failed', text, opId));
        const child = both('AD_COPY_PARENT_FAILED', { level: LEVEL_WORD[n.level], name: n.name });
        for (const c of n.children) await refuse(c, child);
        return;
      }
      const done = { ...after, copied_id: id, ...(reused && { reused: true }) };
      await log.finish(opId, 'ok', null, done);
      results.push(row(n, done, 'ok', null, opId));
      for (const c of n.children) await run(c, id);
    }

    for (const r of p.roots) await run(r, r.parentPlatformId);

    // Mirror what was made (and reused): its top objects bring their children.
    const tops = new Map<string, { level: AdLevel; ad_account_id: number; ids: string[] }>();
    for (const r of results) {
      if (r.result !== 'ok' || r.level !== p.level) continue;
      const key = `${r.ad_account_id}`;
      const entry = tops.get(key) ?? { level: p.level, ad_account_id: r.ad_account_id, ids: [] };
      entry.ids.push(String(r.after.copied_id));
      tops.set(key, entry);
    }
    for (const t of tops.values()) {
      try {
        await sync.refreshObjects(t.ad_account_id, t.level, t.ids, { signal: opts.signal });
      } catch {
        // The next scheduled sync brings the mirror up to date; the log already says what was made.
      }
    }
    return results;
  }

  return { plan, preview, liveTarget, awaitMaterials, execute, neededMaterials };
}

export type AdCopier = ReturnType<typeof createAdCopier>;
