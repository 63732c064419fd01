import { publishDraftSchema } from '@ads/contracts';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { AD_ACCOUNT_SYNC_JOB, type AdAccountSyncData } from '../features/ad-data/ad-data.jobs.ts';
import type { Jobs } from '../jobs/types.ts';
import type { Clock } from '../lib/clock.ts';
import { secretBoxFor } from '../lib/crypto.ts';
import type { Db } from './database.ts';

/**
 * DEMO=1, after the demo assets (demo-assets.ts): campaigns, ad sets and ads in the demo's
 * simulated ad accounts, named by the naming template and linking to the demo sites' dramas and
 * products, back-dated 30 days through the simulator (`/__sim/backdate`) so they have a month
 * of delivery, then synced in by the ordinary per-account sync job (a 30-day backfill). Once
 * per database: an app_settings row records it.
 *
 * The back-dating also asks the simulated sites to send that month's orders (`resend_orders`),
 * which reaches only the sites registered with the simulator by then: they are registered once
 * the server listens (features/orders/simulator-sites.ts), so this runs after that (main.ts)
 * and, should they be missing, does nothing and leaves it to the next start.
 */

const DONE_KEY = 'demo.ads';
const DAYS = 30;
const API_VERSION = 'v25.0';

export interface DemoAdsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: Jobs;
  simulatorUrl: string;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

async function control(url: string, method: 'GET' | 'POST', pathname: string, body?: unknown) {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`simulator ${pathname}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** A Graph POST to the simulator with the demo token (form-encoded, objects as JSON text). */
async function graphPost(url: string, token: string, path: string, params: Record<string, unknown>): Promise<{ id: string }> {
  const form = new URLSearchParams({ access_token: token });
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const res = await fetch(`${url}/${API_VERSION}/${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), signal: AbortSignal.timeout(30_000) });
  const json = (await res.json()) as { id?: string; error?: { message?: string } };
  if (!res.ok || !json.id) throw new Error(`simulator ${path}: ${json.error?.message ?? res.status}`);
  return { id: json.id };
}

/** Runs once per database; answers a one-line description of what it added, or null. */
export async function seedDemoAds({ db, clock, config, jobs, simulatorUrl, log }: DemoAdsDeps): Promise<string | null> {
  const assets = await db.selectFrom('app_settings').select('value').where('key', '=', 'demo.assets').executeTakeFirst();
  if (assets?.value !== 'done') return null;
  // A site the simulator does not know gets no back-dated orders: check before creating anything.
  const live = await db.selectFrom('sites').select('id').where('deleted_at', 'is', null).execute();
  const registered = new Set(((await control(simulatorUrl, 'GET', '/__sim/sites')) as { data: { id: string }[] }).data.map((s) => s.id));
  const missing = live.filter((s) => !registered.has(String(s.id))).map((s) => s.id);
  if (missing.length) {
    log.warn({ sites: missing }, 'DEMO=1: the sites are not registered with the simulator yet, so the demo campaigns wait for the next start');
    return null;
  }
  const claimed = await db.insertInto('app_settings').values({ key: DONE_KEY, value: 'running' }).onConflict((oc) => oc.column('key').doNothing()).returning('key').executeTakeFirst();
  if (!claimed) return null;
  try {
    const secrets = secretBoxFor(db, config.tokenEncryptionKey);
    const accounts = await db
      .selectFrom('ad_accounts as a')
      .innerJoin('user_ad_accounts as ua', 'ua.ad_account_id', 'a.id')
      .innerJoin('users as u', 'u.id', 'ua.user_id')
      .innerJoin('personal_account_ad_accounts as l', 'l.ad_account_id', 'a.id')
      .innerJoin('personal_accounts as pa', 'pa.id', 'l.personal_account_id')
      .select(['a.id', 'a.platform_id', 'a.platform', 'a.currency', 'u.id as owner_id', 'u.account as owner', 'u.department_id', 'pa.token_enc'])
      .where('pa.token_enc', 'is not', null)
      .orderBy(sql`length(a.account_id)`)
      .orderBy('a.account_id')
      .execute();
    const dramas = await db.selectFrom('dramas').select(['id', 'external_id']).where('deleted_at', 'is', null).orderBy('id').execute();
    const products = await db.selectFrom('products').select(['id', 'external_id']).where('deleted_at', 'is', null).orderBy('id').execute();
    const pages = new Map<number, { id: number; platform_id: string }>();
    for (const row of await db.selectFrom('page_ad_accounts as pa').innerJoin('pages as p', 'p.id', 'pa.page_id').select(['pa.ad_account_id', 'p.id', 'p.platform_id']).orderBy('p.id').execute()) {
      if (!pages.has(row.ad_account_id)) pages.set(row.ad_account_id, { id: row.id, platform_id: row.platform_id });
    }
    const pixels = await db.selectFrom('pixel_ad_accounts as x').innerJoin('pixels as p', 'p.id', 'x.pixel_id').select(['x.ad_account_id', 'p.id', 'p.platform_id']).execute();
    const pixelOf = new Map(pixels.map((p) => [p.ad_account_id, { id: p.id, platform_id: p.platform_id }]));
    // {date} of a name: the day its campaign starts delivering.
    const dateOf = (daysAgo: number) => new Date(clock.now().getTime() - daysAgo * 86_400_000).toISOString().slice(2, 10).replace(/-/g, '');
    let schemeCount = 0;
    // Budgets in minor units per currency: about $40–$120 a day.
    const unit = (currency: string) => (currency === 'JPY' ? 150 : 100);

    let campaigns = 0;
    let ads = 0;
    const made: MadeCampaign[] = [];
    const seen = new Set<number>();
    for (const [i, a] of accounts.entries()) {
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      const page = pages.get(a.id);
      const pixel = pixelOf.get(a.id);
      if (!page || !pixel) continue;
      const token = await secrets.decrypt(a.token_enc!);
      const ec = a.platform === 'ec';
      for (let c = 0; c < 2; c++) {
        const title = ec ? products[(i + c) % products.length] : dramas[(i * 2 + c) % dramas.length];
        if (!title) continue;
        const item = title.external_id;
        // {drama}-{optimizer}-{date}-{seq}: names parse back into these dimensions (lib/naming.ts).
        // The ad-set-budget campaign of every third account was published through a scheme, on a day of the month.
        const daysAgo = c === 0 && i % 3 === 0 && schemeCount < SCHEME_DAYS.length ? SCHEME_DAYS[schemeCount++] : undefined;
        const name = `${item}-${a.owner}-${dateOf(daysAgo ?? DAYS)}-${c + 1}`;
        const campaignBudget = c === 1 ? 80 * unit(a.currency) : undefined;
        const status = i % 7 === 6 && c === 1 ? 'PAUSED' : 'ACTIVE';
        const campaign = await graphPost(simulatorUrl, token, `${a.platform_id}/campaigns`, { name, objective: 'OUTCOME_SALES', status, special_ad_categories: [], daily_budget: campaignBudget, is_adset_budget_sharing_enabled: campaignBudget ? undefined : false });
        campaigns++;
        const entry: MadeCampaign = { account: a, title, name, id: campaign.id, page, pixel, daysAgo, adsets: [] };
        made.push(entry);
        for (let s = 0; s < 2; s++) {
          const country = s === 0 ? 'US' : 'CA';
          const adsetBudget = campaignBudget ? null : (40 + 20 * s) * unit(a.currency);
          const adset = await graphPost(simulatorUrl, token, `${a.platform_id}/adsets`, {
            name: `${name}-${country}`,
            campaign_id: campaign.id,
            status: 'ACTIVE',
            daily_budget: adsetBudget ?? undefined,
            billing_event: 'IMPRESSIONS',
            optimization_goal: 'OFFSITE_CONVERSIONS',
            promoted_object: { pixel_id: pixel.platform_id, custom_event_type: 'PURCHASE' },
            targeting: { geo_locations: { countries: [country] }, age_min: 25, age_max: 55, targeting_automation: { advantage_audience: 0 } },
          });
          const link = ec ? `https://shop.example.com/p/${item}` : `https://drama.example.com/play/${item}?ep=${s + 1}`;
          const message = ec ? 'Shop now' : 'Watch the next episode';
          const creativeName = `${name} creative ${s + 1}`;
          const creative = await graphPost(simulatorUrl, token, `${a.platform_id}/adcreatives`, {
            name: creativeName,
            object_story_spec: { page_id: page.platform_id, link_data: { link, message, call_to_action: { type: ec ? 'SHOP_NOW' : 'WATCH_MORE' } } },
            url_tags: URL_TAGS,
          });
          const set: MadeAdSet = { id: adset.id, name: `${name}-${country}`, country, budget: adsetBudget, link, message, creative: { id: creative.id, name: creativeName }, ads: [] };
          entry.adsets.push(set);
          for (let n = 0; n < 2; n++) {
            const adName = `${name}-${s + 1}-${n + 1}`;
            const ad = await graphPost(simulatorUrl, token, `${a.platform_id}/ads`, { name: adName, adset_id: adset.id, status: n === 1 && (i + s) % 5 === 0 ? 'PAUSED' : 'ACTIVE', creative: { creative_id: creative.id } });
            set.ads.push({ id: ad.id, name: adName });
            ads++;
          }
        }
      }
    }

    // Some campaigns were published by their optimizers through the wizard over the month: they
    // become schemes of theirs, started on staggered days (their delivery begins then).
    const schemes = await recordDemoSchemes(db, clock, made);
    const byDays = new Map<number, string[]>();
    for (const m of made) byDays.set(m.daysAgo ?? DAYS, [...(byDays.get(m.daysAgo ?? DAYS) ?? []), m.id]);
    // The month-old ones last, with resend_orders: the registered sites then send the orders of
    // every back-dated day (from the earliest object moved in this call, the earliest of all).
    for (const [days, ids] of [...byDays].sort((x, y) => x[0] - y[0])) {
      await control(simulatorUrl, 'POST', '/__sim/backdate', { ids, days, ...(days === DAYS && { resend_orders: true }) });
    }
    for (const id of seen) {
      await jobs.enqueue(AD_ACCOUNT_SYNC_JOB, { ad_account_id: id, mode: 'backfill', days: DAYS } satisfies AdAccountSyncData, { key: `ad_account:${id}`, singletonKey: `ad-sync:backfill:${id}` });
    }
    await db.updateTable('app_settings').set({ value: 'done', updated_at: clock.now() }).where('key', '=', DONE_KEY).execute();
    log.info({ campaigns, ads, accounts: seen.size, schemes: schemes.length }, 'DEMO=1: campaigns created and back-dated; their sync is queued');
    return `${campaigns} campaigns and ${ads} ads in ${seen.size} ad accounts with ${DAYS} days of delivery (syncing in the background), ${schemes.length} of them as publish schemes`;
  } catch (err) {
    await db.deleteFrom('app_settings').where('key', '=', DONE_KEY).execute();
    throw err;
  }
}

const URL_TAGS = 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}';
/** Days ago the demo's schemes were published, newest last; their campaigns deliver since then. */
const SCHEME_DAYS = [27, 24, 21, 18, 15, 12, 9, 7, 5, 3, 2, 1];

interface MadeAdSet {
  id: string;
  name: string;
  country: string;
  budget: number | null;
  link: string;
  message: string;
  creative: { id: string; name: string };
  ads: { id: string; name: string }[];
}
interface MadeCampaign {
  account: { id: number; platform_id: string; platform: 'dj' | 'ec' | null; currency: string; owner_id: number; owner: string; department_id: number | null };
  /** Published through a scheme that many days ago; undefined: delivering for the whole month. */
  daysAgo: number | undefined;
  title: { id: number; external_id: string };
  name: string;
  id: string;
  page: { id: number; platform_id: string };
  pixel: { id: number; platform_id: string };
  adsets: MadeAdSet[];
}

/**
 * Records the campaign with ad set budgets of every third demo account as a publish scheme of the
 * account's optimizer: the draft the wizard would have sent (with a library video of the drama or
 * product when there is one, for "new from a past scheme"), and one created item per object with its platform id, done
 * on a day of the last month. The ad data sync links the mirrors to these items as they arrive
 * (features/publish/scheme-links.service.ts).
 */
async function recordDemoSchemes(db: Db, clock: Clock, made: MadeCampaign[]): Promise<{ id: number; campaign: MadeCampaign; daysAgo: number }[]> {
  const videos = await db.selectFrom('materials').select(['id', 'drama_id', 'product_id']).where('kind', '=', 'video').where('deleted_at', 'is', null).orderBy('id').execute();
  const videoOf = (m: MadeCampaign) => videos.find((v) => (m.account.platform === 'ec' ? v.product_id : v.drama_id) === m.title.id)?.id;
  const picked = made.filter((m) => m.daysAgo !== undefined);
  const out: { id: number; campaign: MadeCampaign; daysAgo: number }[] = [];
  const now = clock.now().getTime();
  for (const [k, m] of picked.entries()) {
    const daysAgo = m.daysAgo!;
    const ec = m.account.platform === 'ec';
    // Mid-morning of that day (plus a few minutes per scheme, so none share a time).
    const createdAt = new Date(now - daysAgo * 86_400_000 - 3 * 3_600_000 + k * 7 * 60_000);
    const finishedAt = new Date(createdAt.getTime() + 90_000);
    const draft = publishDraftSchema.parse({
      platform: ec ? 'ec' : 'dj',
      scheme_name: m.name,
      what: ec ? { product_id: m.title.id } : { drama_id: m.title.id, episode: 1 },
      creatives: { source: 'materials', videos: videoOf(m) ? [{ material_id: videoOf(m)! }] : [], texts: { primary_texts: [m.adsets[0]!.message], language: 'en' }, combination: 'cartesian' },
      where: { accounts: [{ ad_account_id: m.account.id, page_id: m.page.id, pixel_id: m.pixel.id, link: m.adsets[0]!.link, url_tags: URL_TAGS }] },
      structure: { campaigns_per_account: 1, adsets_per_campaign: m.adsets.length, ads_per_adset: 2 },
      campaign: { objective: 'OUTCOME_SALES', budget_level: 'adset', budget_kind: 'daily', budget: (m.adsets[0]!.budget ?? 0) / (m.account.currency === 'JPY' ? 1 : 100), budget_basis: 'account' },
      adset: { countries: m.adsets.map((s) => s.country), age_min: 25, age_max: 55, optimization_goal: 'OFFSITE_CONVERSIONS', conversion_event: 'PURCHASE' },
      ad: { call_to_action: ec ? 'SHOP_NOW' : 'WATCH_MORE' },
      naming: { campaign: '{drama}-{optimizer}-{date}-{seq}', adset: '{drama}-{country}', ad: '{drama}-{seq}' },
      launch: { mode: 'now' },
    });
    const adsetCount = m.adsets.length;
    const adCount = m.adsets.reduce((n, s) => n + s.ads.length, 0);
    const budgetUsdCents = Math.round(m.adsets.reduce((n, s) => n + (s.budget ?? 0), 0) / (m.account.currency === 'JPY' ? 1.5 : 1));
    const id = await db.transaction().execute(async (trx) => {
      const scheme = await trx
        .insertInto('publish_schemes')
        .values({
          name: m.name,
          platform: ec ? 'ec' : 'dj',
          status: 'done',
          drama_id: ec ? null : m.title.id,
          product_id: ec ? m.title.id : null,
          created_by: m.account.owner_id,
          department_id: m.account.department_id,
          draft: JSON.stringify(draft),
          launch: JSON.stringify(draft.launch),
          planned: JSON.stringify({ accounts: 1, campaigns: 1, adsets: adsetCount, ads: adCount }),
          daily_budget_usd_cents: budgetUsdCents,
          created_at: createdAt,
          started_at: createdAt,
          finished_at: finishedAt,
          updated_at: finishedAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const acc = `a${m.account.id}`;
      let seq = 0;
      const item = async (v: { level: 'campaign' | 'adset' | 'creative' | 'ad'; key: string; parent_id: number | null; creative_item_id: number | null; name: string; platform_id: string; spec: object }) =>
        (
          await trx
            .insertInto('publish_scheme_items')
            .values({ scheme_id: scheme.id, ...v, ad_account_id: m.account.id, seq: seq++, spec: JSON.stringify(v.spec), status: 'created', attempts: 1, sent_at: createdAt, finished_at: finishedAt, created_at: createdAt, updated_at: finishedAt })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const campaignItem = await item({ level: 'campaign', key: `${acc}.c1`, parent_id: null, creative_item_id: null, name: m.name, platform_id: m.id, spec: { objective: 'OUTCOME_SALES', special_ad_categories: [], daily_budget_minor: null, lifetime_budget_minor: null, bid_strategy: 'LOWEST_COST_WITHOUT_CAP', stop_time: null } });
      for (const [n, s] of m.adsets.entries()) {
        const adsetItem = await item({
          level: 'adset',
          key: `${acc}.c1.s${n + 1}`,
          parent_id: campaignItem,
          creative_item_id: null,
          name: s.name,
          platform_id: s.id,
          spec: { daily_budget_minor: s.budget, billing_event: 'IMPRESSIONS', optimization_goal: 'OFFSITE_CONVERSIONS', promoted_object: { pixel_id: m.pixel.platform_id, custom_event_type: 'PURCHASE' }, targeting: { geo_locations: { countries: [s.country] }, age_min: 25, age_max: 55 } },
        });
        // The demo's creatives are link ads without media: no material is recorded as used by them.
        const creativeItem = await item({
          level: 'creative',
          key: `${acc}.v${n + 1}`,
          parent_id: null,
          creative_item_id: null,
          name: s.creative.name,
          platform_id: s.creative.id,
          spec: { kind: 'image', page_platform_id: m.page.platform_id, video_material_id: null, cover_material_id: null, image_material_id: null, primary_text: s.message, headline: null, description: null, post_id: null, dynamic: null, link: s.link, url_tags: URL_TAGS, call_to_action: ec ? 'SHOP_NOW' : 'WATCH_MORE' },
        });
        for (const [j, ad] of s.ads.entries()) {
          await item({ level: 'ad', key: `${acc}.c1.s${n + 1}.ad${j + 1}`, parent_id: adsetItem, creative_item_id: creativeItem, name: ad.name, platform_id: ad.id, spec: {} });
        }
      }
      await trx.insertInto('audit_logs').values({ action: 'system.demo_scheme', entity_type: 'publish_scheme', entity_id: String(scheme.id), after: JSON.stringify({ name: m.name, campaign: m.id }) }).execute();
      return scheme.id;
    });
    out.push({ id, campaign: m, daysAgo });
  }
  return out;
}
