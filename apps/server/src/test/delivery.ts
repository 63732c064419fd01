import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../db/database.ts';
import { signatureHeader } from '../features/orders/signature.ts';
import type { TestApp } from './build-test-app.ts';

// Delivery and orders for report and dashboard tests: ad mirrors as the sync stores them, report
// facts of a day (ad_stats_daily and its campaign rollup, as the sync writes them together), and
// orders sent to the real webhook with the site's signature.

let seq = 0;

export interface MirrorSpec {
  adAccountId: number;
  owner: number | null;
  name?: string;
  platform?: 'dj' | 'ec';
  dramaId?: number | null;
  productId?: number | null;
  materialId?: number | null;
  siteId?: number | null;
  countries?: string[];
}

export interface Mirror {
  campaignId: number;
  adsetId: number;
  adId: number;
  /** Platform ids (digits, as link templates read them). */
  campaign: string;
  adset: string;
  ad: string;
}

/** A campaign with one ad set and one ad, as the structure sync mirrors them. */
export async function mirrorAd(db: Db, spec: MirrorSpec): Promise<Mirror> {
  const n = ++seq;
  const ids = { campaign: `77${n}01`, adset: `77${n}02`, ad: `77${n}03` };
  const now = new Date();
  const name = spec.name ?? `Campaign ${n}`;
  const c = await db
    .insertInto('ad_campaigns')
    .values({ platform_id: ids.campaign, ad_account_id: spec.adAccountId, name, status: 'ACTIVE', effective_status: 'ACTIVE', budget_level: 'adset', currency: 'USD', synced_at: now, platform: spec.platform ?? 'dj', owner_user_id: spec.owner, drama_id: spec.dramaId ?? null, product_id: spec.productId ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const s = await db
    .insertInto('ad_sets')
    .values({ platform_id: ids.adset, ad_account_id: spec.adAccountId, campaign_id: c.id, name: `${name} · set`, status: 'ACTIVE', effective_status: 'ACTIVE', currency: 'USD', synced_at: now, owner_user_id: spec.owner, countries: spec.countries ?? [] })
    .returning('id')
    .executeTakeFirstOrThrow();
  const a = await db
    .insertInto('ads')
    .values({
      platform_id: ids.ad,
      ad_account_id: spec.adAccountId,
      campaign_id: c.id,
      adset_id: s.id,
      name: `${name} · ad`,
      status: 'ACTIVE',
      effective_status: 'ACTIVE',
      synced_at: now,
      owner_user_id: spec.owner,
      drama_id: spec.dramaId ?? null,
      product_id: spec.productId ?? null,
      material_id: spec.materialId ?? null,
      site_id: spec.siteId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { campaignId: c.id, adsetId: s.id, adId: a.id, ...ids };
}

/** One report day of an ad (USD): its ad_stats_daily row and the campaign rollup, as the sync writes them. */
export async function addStats(db: Db, adId: number, day: string, f: { spend: number; impressions?: number; clicks?: number }) {
  const ad = await db
    .selectFrom('ads as a')
    .innerJoin('ad_sets as s', 's.id', 'a.adset_id')
    .innerJoin('ad_campaigns as c', 'c.id', 'a.campaign_id')
    .innerJoin('ad_accounts as acc', 'acc.id', 'a.ad_account_id')
    .select(['a.ad_account_id', 'a.campaign_id', 'a.adset_id', 'a.owner_user_id', 'a.drama_id', 'a.product_id', 'a.material_id', 's.countries', 'acc.platform', 'c.owner_user_id as campaign_owner', 'c.platform as campaign_platform', 'c.drama_id as campaign_drama', 'c.product_id as campaign_product'])
    .where('a.id', '=', adId)
    .executeTakeFirstOrThrow();
  const impressions = f.impressions ?? f.spend * 10;
  const clicks = f.clicks ?? Math.round(impressions / 50);
  await db
    .insertInto('ad_stats_daily')
    .values({
      ad_id: adId,
      day,
      ad_account_id: ad.ad_account_id,
      campaign_id: ad.campaign_id,
      adset_id: ad.adset_id,
      owner_user_id: ad.owner_user_id,
      platform: ad.platform,
      drama_id: ad.drama_id,
      product_id: ad.product_id,
      material_id: ad.material_id,
      country: ad.countries.length === 1 ? ad.countries[0]! : null,
      currency: 'USD',
      spend_minor: f.spend,
      spend_usd_cents: f.spend,
      impressions,
      clicks,
    })
    .execute();
  await sql`insert into campaign_stats_daily (campaign_id, day, ad_account_id, owner_user_id, platform, drama_id, product_id, currency, spend_minor, spend_usd_cents, impressions, clicks)
    values (${ad.campaign_id}, ${day}, ${ad.ad_account_id}, ${ad.campaign_owner}, ${ad.campaign_platform}, ${ad.campaign_drama}, ${ad.campaign_product}, 'USD', ${f.spend}, ${f.spend}, ${impressions}, ${clicks})
    on conflict (campaign_id, day) do update set spend_minor = campaign_stats_daily.spend_minor + excluded.spend_minor, spend_usd_cents = campaign_stats_daily.spend_usd_cents + excluded.spend_usd_cents,
      impressions = campaign_stats_daily.impressions + excluded.impressions, clicks = campaign_stats_daily.clicks + excluded.clicks`.execute(db);
}

export interface WebhookSite {
  id: number;
  secret: string;
}

/** A site created through the API (its webhook secret comes back once). */
export async function createWebhookSite(t: TestApp, managerToken: string, spec: { name?: string; domain?: string; link_template: string; platform?: 'dj' | 'ec' }): Promise<WebhookSite> {
  const n = ++seq;
  const res = await t.call('/api/sites/create', { name: spec.name ?? `Site ${n}`, domain: spec.domain ?? `site${n}.example.com`, platform: spec.platform ?? 'dj', link_template: spec.link_template }, { token: managerToken });
  expect(res.code, res.message).toBe(0);
  return { id: res.data.id, secret: res.data.webhook_secret };
}

/** Posts order events to the site's webhook, signed now by the app clock; the HTTP status and the envelope. */
export async function postOrders(t: TestApp, site: WebhookSite, events: Record<string, unknown>[]) {
  const raw = Buffer.from(JSON.stringify({ events }));
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orders/webhook/${site.id}`,
    headers: { 'content-type': 'application/json', 'x-signature': signatureHeader(site.secret, Math.floor(t.clock.now().getTime() / 1000), raw) },
    payload: raw,
  });
  return { status: res.statusCode, body: res.body, ...(res.json() as { code: number; message: string; data: any }) };
}

/** Sends order events to the site's webhook, signed now by the app clock; expects them stored. */
export async function sendOrders(t: TestApp, site: WebhookSite, events: Record<string, unknown>[]) {
  const res = await postOrders(t, site, events);
  expect(res.status, res.body).toBe(200);
}
