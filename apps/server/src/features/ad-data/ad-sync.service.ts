import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AdLevel, OwnerSource } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { SecretUnreadableError, type SecretBox } from '../../lib/crypto.ts';
import { parseLink } from '../../lib/link-template.ts';
import { DEFAULT_NAMING_TEMPLATES, parseName, type NameDims } from '../../lib/naming.ts';
import { isAuthFailure, platformDetail } from '../../lib/platform-errors.ts';
import { addDays, dayIn, localHourStart, startOfDay } from '../../lib/tz.ts';
import { currencyOffset } from '../../platform/currency.ts';
import { PlatformError, type AdPlatformClient, type PlatformAd, type PlatformAdSet, type PlatformCampaign, type PlatformCreative } from '../../platform/types.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { linkSchemeItemsOfAccount } from '../publish/scheme-links.service.ts';
import { DAILY_FACT_KEYS, rebucketAd, type DailyFacts, type HourFacts } from './rebucket.ts';

// The sync of one ad account (docs/ad-data-design.md §8): its structure (campaigns, ad sets,
// creatives, ads), then its insights per ad × account day and per ad × hour, then the report
// facts in REPORT_TIMEZONE days (ad_stats_daily) and their campaign rollup, written in one
// transaction with the insights. Every write is an upsert or a replace of a range, so a rerun
// (a retry, a continuation after a rate limit) is safe.

export interface AdSyncDeps {
  db: Db;
  platform: AdPlatformClient;
  clock: Clock;
  secrets: SecretBox;
  reportTimezone: string;
  log?: { warn(obj: object, msg?: string): void };
}

export interface AdAccountRef {
  id: number;
  platform_id: string;
  name: string;
  currency: string;
  timezone_name: string;
  platform: 'dj' | 'ec' | null;
}

/** The platform's rate limit stopped the sync; what was written stays. */
export class AdSyncPausedError extends Error {
  constructor(
    readonly platformError: PlatformError,
    readonly phase: 'structure' | 'insights',
  ) {
    super(platformError.message);
    this.name = 'AdSyncPausedError';
  }
}

/** No personal account with a usable token reaches the ad account (any that did were marked invalid). */
export class AdSyncNoTokenError extends Error {
  constructor(readonly deadTokens: { personalAccountId: number; name: string; reason: string }[]) {
    super('no usable token');
    this.name = 'AdSyncNoTokenError';
  }
}

export interface AdSyncSummary {
  ad_account_id: number;
  campaigns: number;
  adsets: number;
  ads: number;
  creatives: number;
  deleted: number;
  daily_rows: number;
  hourly_rows: number;
  stat_rows: number;
  dead_tokens: { personalAccountId: number; name: string; reason: string }[];
}

export interface SyncAccountOptions {
  /** 'recent': today and yesterday (account zone); 'backfill': the last 28 days. */
  mode: 'recent' | 'backfill';
  /** Where a paused sync goes on: 'insights' skips the structure it already wrote. */
  phase?: 'structure' | 'insights';
  /** Backfill: how many days back (default BACKFILL_DAYS, at most 90). */
  days?: number;
  signal?: AbortSignal;
  progress?: (done: number, total: number, message?: string) => Promise<void> | void;
}

/** Ad-days above which Insights go through an async report run (reference §12: large queries). */
const ASYNC_AD_DAYS = 3000;
/** Days the daily backfill re-reads: conversions keep arriving for days (design §8). */
export const BACKFILL_DAYS = 28;
/** A full structure read (which notices vanished objects) at least this often; otherwise incremental. */
const FULL_STRUCTURE_MS = 3_600_000;
const CHUNK = 500;

const chunks = <T>(rows: readonly T[], size = CHUNK): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
};

const isDeleted = (o: { status: string; effectiveStatus: string }) => o.status === 'DELETED' || o.effectiveStatus === 'DELETED';

export function createAdSync(deps: AdSyncDeps) {
  const { db, platform, clock, secrets, reportTimezone } = deps;

  /** Tokens that reach the account, best first: valid before expiring, most recently synced first. */
  async function tokensFor(adAccountId: number) {
    return db
      .selectFrom('personal_account_ad_accounts as l')
      .innerJoin('personal_accounts as pa', 'pa.id', 'l.personal_account_id')
      .select(['pa.id', 'pa.name', 'pa.token_enc'])
      .where('l.ad_account_id', '=', adAccountId)
      .where('l.reachable', '=', true)
      .where('pa.deleted_at', 'is', null)
      .where('pa.token_enc', 'is not', null)
      .where('pa.status', '!=', 'invalid')
      .orderBy('pa.status', 'desc')
      .orderBy('pa.last_synced_at', (ob) => ob.desc().nullsLast())
      .orderBy('pa.id')
      .execute();
  }

  /** A token the platform refused: its personal account is marked invalid with the platform's reason, and the change audited. */
  async function markTokenDead(personalAccountId: number, reason: string) {
    await db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('personal_accounts').select(['status']).where('id', '=', personalAccountId).forUpdate().executeTakeFirst();
      if (!before || before.status === 'invalid') return;
      const now = clock.now();
      await trx
        .updateTable('personal_accounts')
        .set({ status: 'invalid', status_reason_key: 'TOKEN_INVALID_DETAIL', status_reason_params: JSON.stringify({ detail: reason }), last_checked_at: now, updated_at: now })
        .where('id', '=', personalAccountId)
        .execute();
      await writeAudit(trx, { actor: null, ip: null, requestId: 'ad-sync' }, { action: 'personal_account.token_status', entity_type: 'personal_account', entity_id: personalAccountId, before: { status: before.status }, after: { status: 'invalid', reason: 'TOKEN_INVALID_DETAIL', detail: reason } });
    });
  }

  /**
   * Runs `fn` with the best token of the account; a token the platform refuses marks its personal
   * account invalid and the next one is tried. Throws AdSyncNoTokenError when none is left.
   */
  async function withToken<T>(adAccountId: number, fn: (token: string) => Promise<T>, dead: AdSyncSummary['dead_tokens'] = []): Promise<T> {
    for (const row of await tokensFor(adAccountId)) {
      let token: string;
      try {
        token = await secrets.decrypt(row.token_enc!);
      } catch (err) {
        if (!(err instanceof SecretUnreadableError)) throw err;
        continue;
      }
      try {
        return await fn(token);
      } catch (err) {
        if (!isAuthFailure(err)) throw err;
        const reason = platformDetail(err);
        await markTokenDead(row.id, reason);
        dead.push({ personalAccountId: row.id, name: row.name, reason });
      }
    }
    throw new AdSyncNoTokenError(dead);
  }

  async function accountRef(adAccountId: number): Promise<AdAccountRef | undefined> {
    return db.selectFrom('ad_accounts').select(['id', 'platform_id', 'name', 'currency', 'timezone_name', 'platform']).where('id', '=', adAccountId).executeTakeFirst();
  }

  async function namingTemplates(): Promise<string[]> {
    const row = await db.selectFrom('app_settings').select('value').where('key', '=', 'naming_templates').executeTakeFirst();
    if (!row) return DEFAULT_NAMING_TEMPLATES;
    try {
      const parsed = JSON.parse(row.value) as unknown;
      return Array.isArray(parsed) && parsed.every((t) => typeof t === 'string') ? (parsed as string[]) : DEFAULT_NAMING_TEMPLATES;
    } catch {
      return DEFAULT_NAMING_TEMPLATES;
    }
  }

  // ---- structure ---------------------------------------------------------------------------

  interface Fetched {
    campaigns: PlatformCampaign[];
    adsets: PlatformAdSet[];
    ads: PlatformAd[];
    creatives: PlatformCreative[];
  }

  async function fetchStructure(account: AdAccountRef, token: string, since: Date | null, signal?: AbortSignal): Promise<Fetched> {
    const act = account.platform_id;
    const opts = { signal, ...(since && { updatedSince: since }) };
    const campaigns = await platform.listCampaigns(token, act, opts);
    let adsets = await platform.listAdSets(token, act, opts);
    let ads = await platform.listAds(token, act, opts);
    if (since) {
      // A parent's change moves its children's effective status without touching their updated_time.
      const changedCampaigns = [...new Set([...campaigns.map((c) => c.id), ...adsets.map((s) => s.campaignId)])];
      if (changedCampaigns.length) {
        const have = new Set(adsets.map((s) => s.id));
        for (const s of await platform.listAdSets(token, act, { signal, campaignIds: changedCampaigns })) if (!have.has(s.id)) adsets.push(s);
        const haveAds = new Set(ads.map((a) => a.id));
        for (const a of await platform.listAds(token, act, { signal, campaignIds: changedCampaigns })) if (!haveAds.has(a.id)) ads.push(a);
      }
      // Parents we have never seen (their own updated_time is older than the mark).
      const knownCampaigns = await idMap('ad_campaigns', [...new Set([...adsets.map((s) => s.campaignId), ...ads.map((a) => a.campaignId)])]);
      const missingCampaigns = [...new Set([...adsets.map((s) => s.campaignId), ...ads.map((a) => a.campaignId)])].filter((id) => !knownCampaigns.has(id) && !campaigns.some((c) => c.id === id));
      if (missingCampaigns.length) campaigns.push(...(await platform.listCampaigns(token, act, { signal, ids: missingCampaigns })));
      const knownSets = await idMap('ad_sets', [...new Set(ads.map((a) => a.adsetId))]);
      const missingSets = [...new Set(ads.map((a) => a.adsetId))].filter((id) => !knownSets.has(id) && !adsets.some((s) => s.id === id));
      if (missingSets.length) adsets.push(...(await platform.listAdSets(token, act, { signal, ids: missingSets })));
    }
    adsets = dedupe(adsets);
    ads = dedupe(ads);
    // Creatives never change after creation (reference §6): read only those we do not have.
    const creativeIds = [...new Set(ads.map((a) => a.creativeId).filter((id): id is string => !!id))];
    const knownCreatives = await idMap('ad_creatives', creativeIds);
    const wanted = creativeIds.filter((id) => !knownCreatives.has(id));
    const creatives: PlatformCreative[] = [];
    for (const part of chunks(wanted, 100)) creatives.push(...(await platform.listCreatives(token, act, { signal, ids: part })));
    return { campaigns: dedupe(campaigns), adsets, ads, creatives };
  }

  function dedupe<T extends { id: string }>(rows: T[]): T[] {
    return [...new Map(rows.map((r) => [r.id, r])).values()];
  }

  async function idMap(table: 'ad_campaigns' | 'ad_sets' | 'ads' | 'ad_creatives', platformIds: readonly string[], trx: Db = db): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of chunks(platformIds)) {
      if (!part.length) continue;
      const rows = await trx.selectFrom(table).select(['id', 'platform_id']).where('platform_id', 'in', part).execute();
      for (const r of rows) out.set(r.platform_id, r.id);
    }
    return out;
  }

  /** Owner candidates: users by account and by name, for `{optimizer}` tokens (design §3). */
  async function userIndex() {
    const rows = await db.selectFrom('users').select(['id', 'account', 'name']).where('deleted_at', 'is', null).execute();
    const byKey = new Map<string, number>();
    for (const r of rows) {
      byKey.set(r.account.toLowerCase(), r.id);
      if (!byKey.has(r.name.toLowerCase())) byKey.set(r.name.toLowerCase(), r.id);
    }
    return byKey;
  }

  /** The creative's material (by video id or image hash pushed to this account), site, drama / product and episode. */
  async function creativeFacts(account: AdAccountRef, creatives: PlatformCreative[]) {
    const refs = [...new Set(creatives.flatMap((c) => [c.videoId, c.imageHash]).filter((v): v is string => !!v))];
    const materials = new Map<string, number>();
    for (const part of chunks(refs)) {
      if (!part.length) continue;
      const rows = await db.selectFrom('material_pushes').select(['material_id', 'platform_ref']).where('ad_account_id', '=', account.id).where('platform_ref', 'in', part).execute();
      for (const r of rows) if (r.platform_ref) materials.set(r.platform_ref, r.material_id);
    }
    return materials;
  }

  interface LinkFacts {
    site_id: number | null;
    drama_id: number | null;
    episode: number | null;
    product_id: number | null;
  }

  /** Drama / product from a landing link read with its site's link template; failing that, from the name's dimensions. */
  async function linkResolver() {
    const sites = await db.selectFrom('sites').select(['id', 'domain', 'link_template', 'platform']).where('deleted_at', 'is', null).execute();
    const dramaCache = new Map<string, number | null>();
    const productCache = new Map<string, number | null>();
    // Called inside the structure transaction: it reads through that transaction (PGlite has one connection).
    const lookup = async (trx: Db, kind: 'dramas' | 'products', siteId: number | null, key: string) => {
      const cache = kind === 'dramas' ? dramaCache : productCache;
      const cacheKey = `${siteId ?? '*'}|${key.toLowerCase()}`;
      if (cache.has(cacheKey)) return cache.get(cacheKey)!;
      let q = trx.selectFrom(kind).select('id').where('deleted_at', 'is', null);
      q = siteId ? q.where('site_id', '=', siteId).where('external_id', '=', key) : q.where((eb) => eb.or([eb('external_id', '=', key), eb(sql`lower(name)`, '=', key.toLowerCase())]));
      const row = await q.orderBy('id').limit(1).executeTakeFirst();
      cache.set(cacheKey, row?.id ?? null);
      return row?.id ?? null;
    };
    return async (trx: Db, link: string | null, urlTags: string | null, dims: NameDims | null): Promise<LinkFacts> => {
      const out: LinkFacts = { site_id: null, drama_id: null, episode: null, product_id: null };
      if (link) {
        let host = '';
        try {
          host = new URL(link).hostname.toLowerCase();
        } catch {
          /* not a URL */
        }
        const site = sites.find((s) => s.domain.toLowerCase() === host || host.endsWith(`.${s.domain.toLowerCase()}`));
        if (site) {
          out.site_id = site.id;
          const values = parseLink(site.link_template, link, urlTags);
          if (values?.drama_id) out.drama_id = await lookup(trx, 'dramas', site.id, values.drama_id);
          if (values?.product_id) out.product_id = await lookup(trx, 'products', site.id, values.product_id);
          if (values?.episode && /^\d+$/.test(values.episode)) out.episode = Number(values.episode);
        }
      }
      if (!out.drama_id && dims?.drama) out.drama_id = await lookup(trx, 'dramas', null, dims.drama);
      if (!out.product_id && dims?.product) out.product_id = await lookup(trx, 'products', null, dims.product);
      return out;
    };
  }

  /**
   * Writes fetched objects (upserts by platform id) and resolves owners and drama/product. In a
   * full read, live objects that were not listed have vanished and are marked deleted.
   */
  async function writeStructure(account: AdAccountRef, f: Fetched, full: boolean): Promise<Pick<AdSyncSummary, 'campaigns' | 'adsets' | 'ads' | 'creatives' | 'deleted'>> {
    const now = clock.now();
    const templates = await namingTemplates();
    const users = await userIndex();
    const assigned = await db.selectFrom('user_ad_accounts').select('user_id').where('ad_account_id', '=', account.id).execute();
    const accountOwner = assigned.length === 1 ? assigned[0]!.user_id : null;
    const materials = await creativeFacts(account, f.creatives);
    const resolveLink = await linkResolver();
    const ownerFromName = (dims: NameDims | null) => (dims?.optimizer ? (users.get(dims.optimizer.toLowerCase()) ?? null) : null);
    let deleted = 0;

    return db.transaction().execute(async (trx) => {
      // Campaigns.
      const campaignIds = new Map<string, number>();
      for (const part of chunks(f.campaigns)) {
        const rows = await trx
          .insertInto('ad_campaigns')
          .values(
            part.map((c) => {
              const dims = parseName(c.name, templates);
              const owner = ownerFromName(dims);
              return {
                platform_id: c.id,
                ad_account_id: account.id,
                name: c.name,
                status: c.status,
                effective_status: c.effectiveStatus,
                objective: c.objective,
                buying_type: c.buyingType,
                special_ad_categories: c.specialAdCategories,
                budget_level: c.dailyBudgetMinor || c.lifetimeBudgetMinor ? ('campaign' as const) : ('adset' as const),
                daily_budget_minor: c.dailyBudgetMinor,
                lifetime_budget_minor: c.lifetimeBudgetMinor,
                budget_remaining_minor: c.budgetRemainingMinor,
                currency: account.currency,
                bid_strategy: c.bidStrategy,
                start_time: c.startTime,
                end_time: c.endTime,
                created_time: c.createdTime,
                updated_time: c.updatedTime,
                name_dims: dims ? JSON.stringify(dims) : null,
                owner_user_id: owner ?? accountOwner,
                owner_source: owner ? ('name' as const) : accountOwner ? ('account' as const) : null,
                platform: account.platform,
                deleted_at: isDeleted(c) ? now : null,
                synced_at: now,
                created_at: now,
                updated_at: now,
              };
            }),
          )
          .onConflict((oc) =>
            oc.column('platform_id').doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              status: eb.ref('excluded.status'),
              effective_status: eb.ref('excluded.effective_status'),
              objective: eb.ref('excluded.objective'),
              buying_type: eb.ref('excluded.buying_type'),
              special_ad_categories: eb.ref('excluded.special_ad_categories'),
              budget_level: eb.ref('excluded.budget_level'),
              daily_budget_minor: eb.ref('excluded.daily_budget_minor'),
              lifetime_budget_minor: eb.ref('excluded.lifetime_budget_minor'),
              budget_remaining_minor: eb.ref('excluded.budget_remaining_minor'),
              bid_strategy: eb.ref('excluded.bid_strategy'),
              start_time: eb.ref('excluded.start_time'),
              end_time: eb.ref('excluded.end_time'),
              created_time: eb.ref('excluded.created_time'),
              updated_time: eb.ref('excluded.updated_time'),
              name_dims: eb.ref('excluded.name_dims'),
              platform: eb.ref('excluded.platform'),
              // Who published it here stays the owner (design §3); otherwise re-evaluated.
              owner_user_id: sql<number | null>`case when ad_campaigns.owner_source in ('scheme', 'manual') then ad_campaigns.owner_user_id else excluded.owner_user_id end`,
              owner_source: sql<OwnerSource | null>`case when ad_campaigns.owner_source in ('scheme', 'manual') then ad_campaigns.owner_source else excluded.owner_source end`,
              deleted_at: sql<Date | null>`case when excluded.deleted_at is null then null else coalesce(ad_campaigns.deleted_at, excluded.deleted_at) end`,
              synced_at: eb.ref('excluded.synced_at'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .returning(['id', 'platform_id'])
          .execute();
        for (const r of rows) campaignIds.set(r.platform_id, r.id);
      }
      const allCampaigns = await idMap('ad_campaigns', [...new Set([...f.adsets.map((s) => s.campaignId), ...f.ads.map((a) => a.campaignId)])], trx);
      for (const [k, v] of campaignIds) allCampaigns.set(k, v);
      const campaignOwner = new Map<number, { owner: number | null; source: string | null }>();
      if (allCampaigns.size) {
        const rows = await trx.selectFrom('ad_campaigns').select(['id', 'owner_user_id', 'owner_source']).where('id', 'in', [...allCampaigns.values()]).execute();
        for (const r of rows) campaignOwner.set(r.id, { owner: r.owner_user_id, source: r.owner_source });
      }

      // Ad sets.
      const adsetIds = new Map<string, number>();
      const adsets = f.adsets.filter((s) => allCampaigns.has(s.campaignId));
      for (const part of chunks(adsets)) {
        const rows = await trx
          .insertInto('ad_sets')
          .values(
            part.map((s) => {
              const dims = parseName(s.name, templates);
              const own = ownerFromName(dims);
              const parent = campaignOwner.get(allCampaigns.get(s.campaignId)!);
              return {
                platform_id: s.id,
                ad_account_id: account.id,
                campaign_id: allCampaigns.get(s.campaignId)!,
                name: s.name,
                status: s.status,
                effective_status: s.effectiveStatus,
                daily_budget_minor: s.dailyBudgetMinor,
                lifetime_budget_minor: s.lifetimeBudgetMinor,
                budget_remaining_minor: s.budgetRemainingMinor,
                currency: account.currency,
                bid_strategy: s.bidStrategy,
                bid_amount_minor: s.bidAmountMinor,
                roas_floor: s.roasFloor,
                optimization_goal: s.optimizationGoal,
                billing_event: s.billingEvent,
                pixel_id: s.pixelId,
                custom_event_type: s.customEventType,
                attribution_spec: s.attributionSpec === null ? null : JSON.stringify(s.attributionSpec),
                targeting: JSON.stringify(s.targeting),
                countries: s.targeting.countries,
                start_time: s.startTime,
                end_time: s.endTime,
                created_time: s.createdTime,
                updated_time: s.updatedTime,
                name_dims: dims ? JSON.stringify(dims) : null,
                owner_user_id: own ?? parent?.owner ?? null,
                owner_source: own ? ('name' as const) : ((parent?.source ?? null) as 'scheme' | 'name' | 'account' | 'manual' | null),
                deleted_at: isDeleted(s) ? now : null,
                synced_at: now,
                created_at: now,
                updated_at: now,
              };
            }),
          )
          .onConflict((oc) =>
            oc.column('platform_id').doUpdateSet((eb) => ({
              campaign_id: eb.ref('excluded.campaign_id'),
              name: eb.ref('excluded.name'),
              status: eb.ref('excluded.status'),
              effective_status: eb.ref('excluded.effective_status'),
              daily_budget_minor: eb.ref('excluded.daily_budget_minor'),
              lifetime_budget_minor: eb.ref('excluded.lifetime_budget_minor'),
              budget_remaining_minor: eb.ref('excluded.budget_remaining_minor'),
              bid_strategy: eb.ref('excluded.bid_strategy'),
              bid_amount_minor: eb.ref('excluded.bid_amount_minor'),
              roas_floor: eb.ref('excluded.roas_floor'),
              optimization_goal: eb.ref('excluded.optimization_goal'),
              billing_event: eb.ref('excluded.billing_event'),
              pixel_id: eb.ref('excluded.pixel_id'),
              custom_event_type: eb.ref('excluded.custom_event_type'),
              attribution_spec: eb.ref('excluded.attribution_spec'),
              targeting: eb.ref('excluded.targeting'),
              countries: eb.ref('excluded.countries'),
              start_time: eb.ref('excluded.start_time'),
              end_time: eb.ref('excluded.end_time'),
              created_time: eb.ref('excluded.created_time'),
              updated_time: eb.ref('excluded.updated_time'),
              name_dims: eb.ref('excluded.name_dims'),
              owner_user_id: sql<number | null>`case when ad_sets.owner_source in ('scheme', 'manual') then ad_sets.owner_user_id else excluded.owner_user_id end`,
              owner_source: sql<OwnerSource | null>`case when ad_sets.owner_source in ('scheme', 'manual') then ad_sets.owner_source else excluded.owner_source end`,
              deleted_at: sql<Date | null>`case when excluded.deleted_at is null then null else coalesce(ad_sets.deleted_at, excluded.deleted_at) end`,
              synced_at: eb.ref('excluded.synced_at'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .returning(['id', 'platform_id'])
          .execute();
        for (const r of rows) adsetIds.set(r.platform_id, r.id);
      }
      const allSets = await idMap('ad_sets', [...new Set(f.ads.map((a) => a.adsetId))], trx);
      for (const [k, v] of adsetIds) allSets.set(k, v);

      // Creatives.
      for (const part of chunks(f.creatives)) {
        await trx
          .insertInto('ad_creatives')
          .values(
            part.map((c) => ({
              platform_id: c.id,
              ad_account_id: account.id,
              name: c.name,
              status: c.status,
              object_story_id: c.objectStoryId,
              video_platform_id: c.videoId,
              image_hash: c.imageHash,
              page_id: c.pageId,
              call_to_action: c.callToAction,
              link_url: c.linkUrl,
              url_tags: c.urlTags,
              texts: JSON.stringify(c.texts),
              material_id: (c.videoId && materials.get(c.videoId)) || (c.imageHash && materials.get(c.imageHash)) || null,
              created_time: c.createdTime,
              synced_at: now,
              created_at: now,
              updated_at: now,
            })),
          )
          .onConflict((oc) => oc.column('platform_id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), status: eb.ref('excluded.status'), material_id: sql`coalesce(excluded.material_id, ad_creatives.material_id)`, synced_at: eb.ref('excluded.synced_at') })))
          .execute();
      }
      const creativeRows = new Map<string, { id: number; link_url: string | null; url_tags: string | null; material_id: number | null; cover_material_id: number | null }>();
      const wantedCreatives = [...new Set(f.ads.map((a) => a.creativeId).filter((id): id is string => !!id))];
      for (const part of chunks(wantedCreatives)) {
        if (!part.length) continue;
        const rows = await trx.selectFrom('ad_creatives').select(['id', 'platform_id', 'link_url', 'url_tags', 'material_id', 'cover_material_id']).where('platform_id', 'in', part).execute();
        for (const r of rows) creativeRows.set(r.platform_id, r);
      }

      // Ads.
      const ads = f.ads.filter((a) => allSets.has(a.adsetId) && allCampaigns.has(a.campaignId));
      const adsetOwner = new Map<number, { owner: number | null; source: string | null }>();
      if (allSets.size) {
        const rows = await trx.selectFrom('ad_sets').select(['id', 'owner_user_id', 'owner_source']).where('id', 'in', [...allSets.values()]).execute();
        for (const r of rows) adsetOwner.set(r.id, { owner: r.owner_user_id, source: r.owner_source });
      }
      let adCount = 0;
      for (const part of chunks(ads)) {
        const values = await Promise.all(
          part.map(async (a) => {
            const dims = parseName(a.name, templates);
            const own = ownerFromName(dims);
            const parent = adsetOwner.get(allSets.get(a.adsetId)!);
            const creative = a.creativeId ? creativeRows.get(a.creativeId) : undefined;
            const link = await resolveLink(trx, creative?.link_url ?? null, creative?.url_tags ?? null, dims);
            return {
              platform_id: a.id,
              ad_account_id: account.id,
              campaign_id: allCampaigns.get(a.campaignId)!,
              adset_id: allSets.get(a.adsetId)!,
              name: a.name,
              status: a.status,
              effective_status: a.effectiveStatus,
              creative_id: creative?.id ?? null,
              creative_platform_id: a.creativeId,
              material_id: creative?.material_id ?? null,
              cover_material_id: creative?.cover_material_id ?? null,
              landing_url: creative?.link_url ?? null,
              url_tags: creative?.url_tags ?? null,
              ...link,
              created_time: a.createdTime,
              updated_time: a.updatedTime,
              name_dims: dims ? JSON.stringify(dims) : null,
              owner_user_id: own ?? parent?.owner ?? null,
              owner_source: own ? ('name' as const) : ((parent?.source ?? null) as 'scheme' | 'name' | 'account' | 'manual' | null),
              deleted_at: isDeleted(a) ? now : null,
              synced_at: now,
              created_at: now,
              updated_at: now,
            };
          }),
        );
        const rows = await trx
          .insertInto('ads')
          .values(values)
          .onConflict((oc) =>
            oc.column('platform_id').doUpdateSet((eb) => ({
              campaign_id: eb.ref('excluded.campaign_id'),
              adset_id: eb.ref('excluded.adset_id'),
              name: eb.ref('excluded.name'),
              status: eb.ref('excluded.status'),
              effective_status: eb.ref('excluded.effective_status'),
              creative_id: eb.ref('excluded.creative_id'),
              creative_platform_id: eb.ref('excluded.creative_platform_id'),
              material_id: eb.ref('excluded.material_id'),
              cover_material_id: eb.ref('excluded.cover_material_id'),
              landing_url: eb.ref('excluded.landing_url'),
              url_tags: eb.ref('excluded.url_tags'),
              site_id: eb.ref('excluded.site_id'),
              drama_id: eb.ref('excluded.drama_id'),
              episode: eb.ref('excluded.episode'),
              product_id: eb.ref('excluded.product_id'),
              created_time: eb.ref('excluded.created_time'),
              updated_time: eb.ref('excluded.updated_time'),
              name_dims: eb.ref('excluded.name_dims'),
              owner_user_id: sql<number | null>`case when ads.owner_source in ('scheme', 'manual') then ads.owner_user_id else excluded.owner_user_id end`,
              owner_source: sql<OwnerSource | null>`case when ads.owner_source in ('scheme', 'manual') then ads.owner_source else excluded.owner_source end`,
              deleted_at: sql<Date | null>`case when excluded.deleted_at is null then null else coalesce(ads.deleted_at, excluded.deleted_at) end`,
              synced_at: eb.ref('excluded.synced_at'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .returning('id')
          .execute();
        adCount += rows.length;
      }

      if (full) {
        // Objects the platform no longer lists at all (not even as DELETED) are gone.
        for (const [table, seen] of [
          ['ads', f.ads.map((a) => a.id)],
          ['ad_sets', f.adsets.map((s) => s.id)],
          ['ad_campaigns', f.campaigns.map((c) => c.id)],
        ] as const) {
          let q = trx.updateTable(table).set({ deleted_at: now, effective_status: 'DELETED', updated_at: now }).where('ad_account_id', '=', account.id).where('deleted_at', 'is', null);
          if (seen.length) q = q.where('platform_id', 'not in', seen);
          const res = await q.executeTakeFirst();
          deleted += Number(res.numUpdatedRows);
        }
      }

      // Campaigns and ad sets carry the drama / product when all their ads agree (fast filters).
      await sql`
        update ad_sets s set drama_id = x.drama_id, product_id = x.product_id
        from (select adset_id, case when count(distinct drama_id) = 1 and count(*) = count(drama_id) then min(drama_id) end as drama_id,
                     case when count(distinct product_id) = 1 and count(*) = count(product_id) then min(product_id) end as product_id
              from ads where ad_account_id = ${account.id} group by adset_id) x
        where s.id = x.adset_id`.execute(trx);
      await sql`
        update ad_campaigns c set drama_id = x.drama_id, product_id = x.product_id
        from (select campaign_id, case when count(distinct drama_id) = 1 and count(*) = count(drama_id) then min(drama_id) end as drama_id,
                     case when count(distinct product_id) = 1 and count(*) = count(product_id) then min(product_id) end as product_id
              from ads where ad_account_id = ${account.id} group by campaign_id) x
        where c.id = x.campaign_id`.execute(trx);

      return { campaigns: campaignIds.size, adsets: adsetIds.size, ads: adCount, creatives: f.creatives.length, deleted };
    });
  }

  // ---- insights and report facts -----------------------------------------------------------

  /** The account's day of `now`, and the range a mode reads. */
  function rangeOf(account: AdAccountRef, mode: SyncAccountOptions['mode'], days = BACKFILL_DAYS) {
    const today = dayIn(clock.now().getTime(), account.timezone_name);
    return { since: addDays(today, mode === 'recent' ? -1 : -(Math.min(90, Math.max(1, days)) - 1)), until: today };
  }

  /** Whether account days and report days coincide over the range (same offsets at every day start). */
  function zonesAlign(tz: string, since: string, until: string): boolean {
    if (tz === reportTimezone) return true;
    for (let d = since; d <= addDays(until, 1); d = addDays(d, 1)) if (startOfDay(d, tz) !== startOfDay(d, reportTimezone)) return false;
    return true;
  }

  /** Reads insights of an account-day range and writes facts, report facts and rollups in one transaction. */
  async function syncInsights(account: AdAccountRef, token: string, range: { since: string; until: string }, opts: { hourly: boolean; signal?: AbortSignal }) {
    const adCount = Number((await db.selectFrom('ads').select((eb) => eb.fn.countAll().as('n')).where('ad_account_id', '=', account.id).executeTakeFirstOrThrow()).n);
    const days = Math.round((Date.parse(range.until) - Date.parse(range.since)) / 86_400_000) + 1;
    const iopts = { currency: account.currency, signal: opts.signal, async: adCount * days > ASYNC_AD_DAYS };
    const daily = await platform.insightsDaily(token, account.platform_id, range, iopts);
    const hourly = opts.hourly ? await platform.insightsHourly(token, account.platform_id, range, iopts) : [];
    const now = clock.now();
    const tz = account.timezone_name;
    const fromMs = startOfDay(range.since, tz);
    const toMs = startOfDay(addDays(range.until, 1), tz);

    return db.transaction().execute(async (trx) => {
      const ids = await idMap('ads', [...new Set([...daily.map((r) => r.adId), ...hourly.map((r) => r.adId)])], trx);
      const accountAds = trx.selectFrom('ads').select('id').where('ad_account_id', '=', account.id);
      await trx.deleteFrom('ad_insights_daily').where('ad_id', 'in', accountAds).where('date', '>=', range.since).where('date', '<=', range.until).execute();
      const dailyRows = daily
        .filter((r) => ids.has(r.adId))
        .map((r) => ({
          ad_id: ids.get(r.adId)!,
          date: r.date,
          spend_minor: r.spendMinor,
          impressions: r.impressions,
          clicks: r.clicks,
          link_clicks: r.linkClicks,
          landing_page_views: r.landingPageViews,
          purchases: r.purchases,
          purchase_value_minor: r.purchaseValueMinor,
          add_to_cart: r.addToCart,
          initiate_checkout: r.initiateCheckout,
          video_plays: r.videoPlays,
          video_p25: r.videoP25,
          video_p50: r.videoP50,
          video_p75: r.videoP75,
          video_p95: r.videoP95,
          video_p100: r.videoP100,
          thruplays: r.thruplays,
          video_watch_ms: r.videoWatchMs,
          synced_at: now,
        }));
      for (const part of chunks(dailyRows)) await trx.insertInto('ad_insights_daily').values(part).execute();
      if (opts.hourly) {
        await trx.deleteFrom('ad_insights_hourly').where('ad_id', 'in', accountAds).where('hour', '>=', new Date(fromMs)).where('hour', '<', new Date(toMs)).execute();
        // A DST change repeats a wall-clock hour: both land on one instant and are added.
        const merged = new Map<string, { ad_id: number; hour: Date; spend_minor: number; impressions: number; clicks: number; synced_at: Date }>();
        for (const r of hourly) {
          const adId = ids.get(r.adId);
          if (adId === undefined) continue;
          const hour = localHourStart(r.date, r.hour, tz);
          const key = `${adId}|${hour}`;
          const hit = merged.get(key);
          if (hit) {
            hit.spend_minor += r.spendMinor;
            hit.impressions += r.impressions;
            hit.clicks += r.clicks;
          } else merged.set(key, { ad_id: adId, hour: new Date(hour), spend_minor: r.spendMinor, impressions: r.impressions, clicks: r.clicks, synced_at: now });
        }
        for (const part of chunks([...merged.values()])) await trx.insertInto('ad_insights_hourly').values(part).execute();
      }
      const statRows = await rebuildStats(trx, account, range);
      const active = dailyRows.filter((r) => r.spend_minor > 0).reduce<string | null>((m, r) => (m === null || r.date > m ? r.date : m), null);
      return { daily_rows: dailyRows.length, hourly_rows: hourly.length, stat_rows: statRows, last_active: active };
    });
  }

  /**
   * Rebuilds ad_stats_daily and campaign_stats_daily of the report days that the account days
   * `range` touch, from every account day that overlaps those report days.
   */
  async function rebuildStats(trx: Db, account: AdAccountRef, range: { since: string; until: string }): Promise<number> {
    const tz = account.timezone_name;
    const reportDays = new Set<string>();
    for (let d = range.since; d <= range.until; d = addDays(d, 1)) {
      reportDays.add(dayIn(startOfDay(d, tz), reportTimezone));
      reportDays.add(dayIn(startOfDay(addDays(d, 1), tz) - 1, reportTimezone));
    }
    const sorted = [...reportDays].sort();
    const firstR = sorted[0]!;
    const lastR = sorted[sorted.length - 1]!;
    // Account days overlapping those report days.
    const since = dayIn(startOfDay(firstR, reportTimezone), tz);
    const until = dayIn(startOfDay(addDays(lastR, 1), reportTimezone) - 1, tz);
    const accountAds = trx.selectFrom('ads').select('id').where('ad_account_id', '=', account.id);
    const daily = await trx.selectFrom('ad_insights_daily').selectAll().where('ad_id', 'in', accountAds).where('date', '>=', since).where('date', '<=', until).execute();
    const aligned = zonesAlign(tz, since, until);
    const hourly = aligned
      ? []
      : await trx
          .selectFrom('ad_insights_hourly')
          .select(['ad_id', 'hour', 'spend_minor', 'impressions', 'clicks'])
          .where('ad_id', 'in', accountAds)
          .where('hour', '>=', new Date(startOfDay(since, tz)))
          .where('hour', '<', new Date(startOfDay(addDays(until, 1), tz)))
          .execute();

    const perAd = new Map<number, { days: Map<string, DailyFacts>; hours: HourFacts[] }>();
    const entry = (adId: number) => {
      let e = perAd.get(adId);
      if (!e) perAd.set(adId, (e = { days: new Map(), hours: [] }));
      return e;
    };
    for (const r of daily) entry(r.ad_id).days.set(r.date, Object.fromEntries(DAILY_FACT_KEYS.map((k) => [k, Number(r[k])])) as DailyFacts);
    for (const h of hourly) entry(h.ad_id).hours.push({ hour: h.hour.getTime(), spend_minor: h.spend_minor, impressions: h.impressions, clicks: h.clicks });

    const dims = new Map(
      (
        await trx
          .selectFrom('ads as a')
          .innerJoin('ad_sets as s', 's.id', 'a.adset_id')
          .select(['a.id', 'a.campaign_id', 'a.adset_id', 'a.owner_user_id', 'a.drama_id', 'a.product_id', 'a.material_id', 's.countries'])
          .where('a.ad_account_id', '=', account.id)
          .execute()
      ).map((r) => [r.id, r]),
    );
    const rate = await rateLookup(trx, account.currency, lastR);
    const offset = currencyOffset(account.currency);
    const usd = (minor: number, day: string) => {
      const r = rate(day);
      return r ? Math.round((minor / offset / r) * 100) : 0;
    };

    await trx.deleteFrom('ad_stats_daily').where('ad_account_id', '=', account.id).where('day', 'in', sorted).execute();
    await trx.deleteFrom('campaign_stats_daily').where('ad_account_id', '=', account.id).where('day', 'in', sorted).execute();
    const rows = [];
    for (const [adId, e] of perAd) {
      const d = dims.get(adId);
      if (!d) continue;
      for (const [day, facts] of aligned ? new Map([...e.days].map(([date, f]) => [date, f])) : rebucketAd(tz, reportTimezone, e.days, e.hours)) {
        if (!reportDays.has(day)) continue;
        rows.push({
          ad_id: adId,
          day,
          ad_account_id: account.id,
          campaign_id: d.campaign_id,
          adset_id: d.adset_id,
          owner_user_id: d.owner_user_id,
          platform: account.platform,
          drama_id: d.drama_id,
          product_id: d.product_id,
          material_id: d.material_id,
          country: d.countries.length === 1 ? d.countries[0]! : null,
          currency: account.currency,
          ...facts,
          spend_usd_cents: usd(facts.spend_minor, day),
          purchase_value_usd_cents: usd(facts.purchase_value_minor, day),
        });
      }
    }
    for (const part of chunks(rows, 300)) await trx.insertInto('ad_stats_daily').values(part).execute();
    await refreshCampaignStats(trx, account.id, sorted);
    return rows.length;
  }

  return {
    tokensFor,
    withToken,
    markTokenDead,
    accountRef,
    rangeOf,
    rebuildStats,

    /**
     * Syncs one ad account: structure (incremental by updated_time, full hourly), then insights of
     * today and yesterday, or of the last 28 days (backfill). Throws AdSyncPausedError at a rate
     * limit (resume with `phase`), AdSyncNoTokenError when no token works.
     */
    async syncAccount(adAccountId: number, opts: SyncAccountOptions): Promise<AdSyncSummary> {
      const account = await accountRef(adAccountId);
      if (!account) throw new Error(`ad account ${adAccountId} not found`);
      const summary: AdSyncSummary = { ad_account_id: adAccountId, campaigns: 0, adsets: 0, ads: 0, creatives: 0, deleted: 0, daily_rows: 0, hourly_rows: 0, stat_rows: 0, dead_tokens: [] };
      const state = await db.selectFrom('ad_account_sync_state').selectAll().where('ad_account_id', '=', adAccountId).executeTakeFirst();
      const setState = async (s: Partial<{ status: 'idle' | 'running' | 'paused' | 'failed' | 'no_token'; structure_since: Date; structure_synced_at: Date; insights_synced_at: Date; backfill_synced_at: Date; last_active_date: string; resume_at: Date | null; last_error: string | null }>) => {
        const now = clock.now();
        await db
          .insertInto('ad_account_sync_state')
          .values({ ad_account_id: adAccountId, ...s, updated_at: now })
          .onConflict((oc) => oc.column('ad_account_id').doUpdateSet({ ...s, updated_at: now }))
          .execute();
      };
      await setState({ status: 'running' });
      let phase = opts.phase ?? 'structure';
      try {
        await withToken(
          adAccountId,
          async (token) => {
            if (phase === 'structure') {
              const startedAt = clock.now();
              // A full read hourly notices objects that vanished; in between, only what changed.
              const full = !state?.structure_since || !state.structure_synced_at || startedAt.getTime() - state.structure_synced_at.getTime() >= FULL_STRUCTURE_MS || opts.mode === 'backfill';
              await opts.progress?.(0, 3, 'structure');
              // A minute of overlap: the platform's updated_time has second precision and clocks differ.
              const since = full ? null : new Date(state!.structure_since!.getTime() - 60_000);
              const fetched = await fetchStructure(account, token, since, opts.signal);
              Object.assign(summary, await writeStructure(account, fetched, full));
              // Objects a scheme created whose mirror arrives only now (its own refresh missed them) join their scheme.
              await linkSchemeItemsOfAccount(db, account.id, clock.now());
              await setState({ structure_since: startedAt, ...(full && { structure_synced_at: startedAt }) });
              phase = 'insights';
            }
            await opts.progress?.(1, 3, 'insights');
            const range = rangeOf(account, opts.mode, opts.days);
            // Hourly rows: always for today and yesterday (charts, rules); in the backfill only where re-bucketing needs them.
            const hourly = opts.mode === 'recent' || !zonesAlign(account.timezone_name, range.since, range.until);
            const written = await syncInsights(account, token, range, { hourly, signal: opts.signal });
            summary.daily_rows = written.daily_rows;
            summary.hourly_rows = written.hourly_rows;
            summary.stat_rows = written.stat_rows;
            const now = clock.now();
            await setState({
              status: 'idle',
              resume_at: null,
              last_error: null,
              insights_synced_at: now,
              ...(opts.mode === 'backfill' && { backfill_synced_at: now }),
              ...(written.last_active && (!state?.last_active_date || written.last_active > state.last_active_date) && { last_active_date: written.last_active }),
            });
            await opts.progress?.(3, 3);
          },
          summary.dead_tokens,
        );
      } catch (err) {
        if (err instanceof PlatformError && err.kind === 'rate_limited') {
          await setState({ status: 'paused', last_error: platformDetail(err) });
          throw new AdSyncPausedError(err, phase);
        }
        if (err instanceof AdSyncNoTokenError) {
          await setState({ status: 'no_token', last_error: err.deadTokens.map((d) => `${d.name}: ${d.reason}`).join('; ') || null });
          throw err;
        }
        await setState({ status: 'failed', last_error: err instanceof Error ? err.message.slice(0, 500) : String(err) });
        throw err;
      }
      return summary;
    },

    /** Re-reads the named objects right after a write made here (and their children's statuses). */
    async refreshObjects(adAccountId: number, level: AdLevel, platformIds: readonly string[], opts: { signal?: AbortSignal } = {}) {
      const account = await accountRef(adAccountId);
      if (!account || !platformIds.length) return;
      await withToken(adAccountId, async (token) => {
        const act = account.platform_id;
        const f: Fetched = { campaigns: [], adsets: [], ads: [], creatives: [] };
        if (level === 'campaign') {
          f.campaigns = await platform.listCampaigns(token, act, { ids: platformIds, signal: opts.signal });
          f.adsets = await platform.listAdSets(token, act, { campaignIds: platformIds, signal: opts.signal });
          f.ads = await platform.listAds(token, act, { campaignIds: platformIds, signal: opts.signal });
        } else if (level === 'adset') {
          f.adsets = await platform.listAdSets(token, act, { ids: platformIds, signal: opts.signal });
          const campaigns = [...new Set(f.adsets.map((s) => s.campaignId))];
          f.campaigns = await platform.listCampaigns(token, act, { ids: campaigns, signal: opts.signal });
          f.ads = (await platform.listAds(token, act, { campaignIds: campaigns, signal: opts.signal })).filter((a) => platformIds.includes(a.adsetId));
        } else {
          f.ads = await platform.listAds(token, act, { ids: platformIds, signal: opts.signal });
          f.adsets = await platform.listAdSets(token, act, { ids: [...new Set(f.ads.map((a) => a.adsetId))], signal: opts.signal });
          f.campaigns = await platform.listCampaigns(token, act, { ids: [...new Set(f.ads.map((a) => a.campaignId))], signal: opts.signal });
        }
        const creativeIds = [...new Set(f.ads.map((a) => a.creativeId).filter((id): id is string => !!id))];
        const known = await idMap('ad_creatives', creativeIds);
        const missing = creativeIds.filter((id) => !known.has(id));
        if (missing.length) f.creatives = await platform.listCreatives(token, act, { ids: missing, signal: opts.signal });
        await writeStructure(account, f, false);
      });
    },
  };
}

/** Units per USD of `currency` for any day up to `until`: the day's rate, else the last known earlier one (design §2). */
export async function rateLookup(db: Db, currency: string, until: string): Promise<(day: string) => number | null> {
  const rows = await db.selectFrom('fx_rates').select(['day', 'units_per_usd']).where('currency', '=', currency.toUpperCase()).where('day', '<=', until).orderBy('day').execute();
  return (day: string) => {
    let found: number | null = null;
    for (const r of rows) {
      if (r.day > day) break;
      found = Number(r.units_per_usd);
    }
    return found;
  };
}

/** Recomputes campaign_stats_daily of an account's report days from ad_stats_daily (same transaction as the facts). */
export async function refreshCampaignStats(trx: Db, adAccountId: number, days: readonly string[]) {
  if (!days.length) return;
  await trx.deleteFrom('campaign_stats_daily').where('ad_account_id', '=', adAccountId).where('day', 'in', days).execute();
  const facts = ['spend_minor', 'spend_usd_cents', 'impressions', 'clicks', 'link_clicks', 'landing_page_views', 'purchases', 'purchase_value_minor', 'purchase_value_usd_cents', 'add_to_cart', 'initiate_checkout', 'video_plays', 'video_p25', 'video_p50', 'video_p75', 'video_p95', 'video_p100', 'thruplays', 'video_watch_ms'];
  const cols = sql.join(facts.map((f) => sql.ref(f)));
  const sums = sql.join(facts.map((f) => sql`sum(s.${sql.ref(f)})`));
  await sql`
    insert into campaign_stats_daily (campaign_id, day, ad_account_id, owner_user_id, platform, drama_id, product_id, currency, ${cols})
    select s.campaign_id, s.day, ${adAccountId}, c.owner_user_id, c.platform, c.drama_id, c.product_id, min(s.currency), ${sums}
    from ad_stats_daily s join ad_campaigns c on c.id = s.campaign_id
    where s.ad_account_id = ${adAccountId} and s.day in (${sql.join(days)})
    group by s.campaign_id, s.day, c.owner_user_id, c.platform, c.drama_id, c.product_id`.execute(trx);
}
