import type { Db } from '../db/database.ts';
import { createAssetSync } from '../features/personal-accounts/asset-sync.service.ts';
import { secretBoxFor } from '../lib/crypto.ts';
import type { AdPlatformClient } from '../platform/types.ts';
import { startOfDay } from '../lib/tz.ts';
import { testConfig, type TestApp } from './build-test-app.ts';
import type { SimUser, TestSimulator } from './simulator.ts';

// Helpers of the ad-data tests: campaigns built on the simulator over its Graph API, and a
// personal account connected through the product's API so its token and ad accounts are stored.

/** A Graph call to the simulator with a user's token (form-encoded, JSON text for objects). */
export async function graph(sim: TestSimulator, token: string, method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, unknown> = {}) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries({ access_token: token, ...params })) if (v !== undefined) form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const url = `${sim.url}/v25.0/${path.replace(/^\//, '')}`;
  const res = method === 'POST' ? await fetch(url, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }) : await fetch(`${url}?${form.toString()}`, { method });
  const body = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(body)}`);
  return body;
}

/** Campaign → ad set → creative → ads on the simulator, delivering once active. */
export async function simTree(
  sim: TestSimulator,
  user: SimUser,
  act: string,
  o: { name?: string; adsetName?: string; campaignBudget?: number; adsetBudget?: number; ads?: number; link?: string; countries?: string[]; status?: 'ACTIVE' | 'PAUSED' } = {},
) {
  const status = o.status ?? 'ACTIVE';
  const token = user.access_token;
  const campaign = await graph(sim, token, 'POST', `${act}/campaigns`, { name: o.name ?? 'Campaign', objective: 'OUTCOME_SALES', status, special_ad_categories: [], daily_budget: o.campaignBudget, is_adset_budget_sharing_enabled: o.campaignBudget ? undefined : false });
  const adset = await graph(sim, token, 'POST', `${act}/adsets`, {
    name: o.adsetName ?? 'Ad set',
    campaign_id: campaign.id,
    status,
    daily_budget: o.campaignBudget ? undefined : (o.adsetBudget ?? 5000),
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'OFFSITE_CONVERSIONS',
    promoted_object: { pixel_id: user.pixels[0]!.id, custom_event_type: 'PURCHASE' },
    targeting: { geo_locations: { countries: o.countries ?? ['US'] }, targeting_automation: { advantage_audience: 0 } },
  });
  const creative = await graph(sim, token, 'POST', `${act}/adcreatives`, {
    name: 'Creative',
    object_story_spec: { page_id: user.pages[0]!.id, link_data: { link: o.link ?? 'https://drama.example/ep1', message: 'Watch now' } },
  });
  const ads: string[] = [];
  for (let i = 0; i < (o.ads ?? 2); i++) {
    const ad = await graph(sim, token, 'POST', `${act}/ads`, { name: `Ad ${i + 1}`, adset_id: adset.id, status, creative: { creative_id: creative.id } });
    ads.push(ad.id as string);
  }
  return { campaignId: campaign.id as string, adsetId: adset.id as string, creativeId: creative.id as string, adIds: ads };
}

/**
 * Connects the sim user's token through the API and (unless `sync` is false: a job engine does it)
 * runs the asset sync, so its ad accounts exist here. Answers the personal account id.
 */
export async function connectUser(t: TestApp, managerToken: string, user: SimUser, platform: AdPlatformClient, o: { sync?: boolean } = {}): Promise<number> {
  const res = await t.call('/api/personal-accounts/connect_token', { access_token: user.access_token }, { token: managerToken });
  if (res.code !== 0) throw new Error(`connect failed: ${res.message}`);
  const id = res.data.id as number;
  if (o.sync !== false) await createAssetSync({ db: t.db, platform, clock: t.clock, secrets: secretBoxFor(t.db, testConfig().tokenEncryptionKey) }).syncPersonalAccount(id);
  return id;
}

export async function adAccountId(db: Db, act: string): Promise<number> {
  const row = await db.selectFrom('ad_accounts').select('id').where('platform_id', '=', act).executeTakeFirstOrThrow();
  return row.id;
}

/** Moves the app clock to the simulator's. */
export async function syncClocks(t: TestApp, sim: TestSimulator) {
  const state = await sim.control<{ now_ms: number }>('GET', '/__sim/clock');
  t.clock.set(new Date(state.now_ms));
}

export const dayStartUtc = startOfDay;
