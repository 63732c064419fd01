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

async function call(url: string, pathname: string, body: unknown) {
  const res = await fetch(`${url}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
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
      .select(['a.id', 'a.platform_id', 'a.platform', 'a.currency', 'u.account as owner', 'pa.token_enc'])
      .where('pa.token_enc', 'is not', null)
      .orderBy(sql`length(a.account_id)`)
      .orderBy('a.account_id')
      .execute();
    const dramas = await db.selectFrom('dramas').select(['external_id']).where('deleted_at', 'is', null).orderBy('id').execute();
    const products = await db.selectFrom('products').select(['external_id']).where('deleted_at', 'is', null).orderBy('id').execute();
    const pages = new Map<number, string>();
    for (const row of await db.selectFrom('page_ad_accounts as pa').innerJoin('pages as p', 'p.id', 'pa.page_id').select(['pa.ad_account_id', 'p.platform_id']).orderBy('p.id').execute()) {
      if (!pages.has(row.ad_account_id)) pages.set(row.ad_account_id, row.platform_id);
    }
    const pixels = await db.selectFrom('pixel_ad_accounts as x').innerJoin('pixels as p', 'p.id', 'x.pixel_id').select(['x.ad_account_id', 'p.platform_id']).execute();
    const pixelOf = new Map(pixels.map((p) => [p.ad_account_id, p.platform_id]));
    const date = clock.now().toISOString().slice(2, 10).replace(/-/g, '');
    // Budgets in minor units per currency: about $40–$120 a day.
    const unit = (currency: string) => (currency === 'JPY' ? 150 : 100);

    let campaigns = 0;
    let ads = 0;
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
        const item = ec ? products[(i + c) % products.length]?.external_id : dramas[(i * 2 + c) % dramas.length]?.external_id;
        if (!item) continue;
        // {drama}-{optimizer}-{date}-{seq}: names parse back into these dimensions (lib/naming.ts).
        const name = `${item}-${a.owner}-${date}-${c + 1}`;
        const campaignBudget = c === 1 ? 80 * unit(a.currency) : undefined;
        const campaign = await graphPost(simulatorUrl, token, `${a.platform_id}/campaigns`, { name, objective: 'OUTCOME_SALES', status: i % 7 === 6 && c === 1 ? 'PAUSED' : 'ACTIVE', special_ad_categories: [], daily_budget: campaignBudget, is_adset_budget_sharing_enabled: campaignBudget ? undefined : false });
        campaigns++;
        for (let s = 0; s < 2; s++) {
          const adset = await graphPost(simulatorUrl, token, `${a.platform_id}/adsets`, {
            name: `${name}-${s === 0 ? 'US' : 'CA'}`,
            campaign_id: campaign.id,
            status: 'ACTIVE',
            daily_budget: campaignBudget ? undefined : (40 + 20 * s) * unit(a.currency),
            billing_event: 'IMPRESSIONS',
            optimization_goal: 'OFFSITE_CONVERSIONS',
            promoted_object: { pixel_id: pixel, custom_event_type: 'PURCHASE' },
            targeting: { geo_locations: { countries: [s === 0 ? 'US' : 'CA'] }, age_min: 25, age_max: 55, targeting_automation: { advantage_audience: 0 } },
          });
          const link = ec ? `https://shop.example.com/p/${item}` : `https://drama.example.com/play/${item}?ep=${s + 1}`;
          const creative = await graphPost(simulatorUrl, token, `${a.platform_id}/adcreatives`, {
            name: `${name} creative ${s + 1}`,
            object_story_spec: { page_id: page, link_data: { link, message: ec ? 'Shop now' : 'Watch the next episode', call_to_action: { type: ec ? 'SHOP_NOW' : 'WATCH_MORE' } } },
            url_tags: 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}',
          });
          for (let n = 0; n < 2; n++) {
            await graphPost(simulatorUrl, token, `${a.platform_id}/ads`, { name: `${name}-${s + 1}-${n + 1}`, adset_id: adset.id, status: n === 1 && (i + s) % 5 === 0 ? 'PAUSED' : 'ACTIVE', creative: { creative_id: creative.id } });
            ads++;
          }
        }
      }
      await call(simulatorUrl, '/__sim/backdate', { account_id: a.platform_id, days: DAYS });
      await jobs.enqueue(AD_ACCOUNT_SYNC_JOB, { ad_account_id: a.id, mode: 'backfill', days: DAYS } satisfies AdAccountSyncData, { key: `ad_account:${a.id}`, singletonKey: `ad-sync:backfill:${a.id}` });
    }
    await db.updateTable('app_settings').set({ value: 'done', updated_at: clock.now() }).where('key', '=', DONE_KEY).execute();
    log.info({ campaigns, ads, accounts: seen.size }, 'DEMO=1: campaigns created and back-dated; their sync is queued');
    return `${campaigns} campaigns and ${ads} ads in ${seen.size} ad accounts with ${DAYS} days of delivery (syncing in the background)`;
  } catch (err) {
    await db.deleteFrom('app_settings').where('key', '=', DONE_KEY).execute();
    throw err;
  }
}
