import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator.ts';

// Test helpers: a simulator on a random port, and small clients that talk to it over real
// HTTP the way the product's Graph client does (form-encoded POSTs, JSON text for objects).

export const START = '2026-05-01T00:00:00Z';

export interface GraphAnswer {
  status: number;
  headers: Headers;
  body: any;
}

type ParamValue = string | number | boolean | object | undefined;

function encode(params: Record<string, ParamValue>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return out;
}

export interface TestSim {
  sim: Simulator;
  url: string;
  /** A Graph call with the default token unless `access_token` is given. */
  graph(method: 'GET' | 'POST' | 'DELETE', path: string, params?: Record<string, ParamValue>): Promise<GraphAnswer>;
  control(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<any>;
  advance(duration: string): Promise<void>;
  token: string;
  user: any;
  close(): Promise<void>;
}

export async function startTestSim(
  options: SimulatorOptions & { user?: Record<string, unknown> } = {},
): Promise<TestSim> {
  const { user: userInput, ...simOptions } = options;
  // A frozen clock: tests move it explicitly, so every number is reproducible.
  const sim = await startSimulator({ port: 0, startTime: START, speed: 0, orderIntervalMs: 0, ...simOptions });
  const url = sim.url;

  async function control(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  const user = await control('POST', '/__sim/users', { ad_accounts: 2, pages: 1, pixels: 1, ...userInput });
  const harness: TestSim = {
    sim,
    url,
    token: user.access_token,
    user,
    control,
    async graph(method, path, params = {}) {
      const withToken = { access_token: harness.token, ...params };
      const target = `${url}/v25.0${path.startsWith('/') ? path : `/${path}`}`;
      const res =
        method === 'POST'
          ? await fetch(target, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: encode(withToken).toString() })
          : await fetch(`${target}?${encode(withToken).toString()}`, { method });
      return { status: res.status, headers: res.headers, body: await res.json() };
    },
    async advance(duration) {
      await control('POST', '/__sim/clock', { advance: duration });
    },
    close: () => sim.close(),
  };
  return harness;
}

/** A campaign → ad set → ad tree in an account, ready to deliver once switched on. */
export async function createTree(
  t: TestSim,
  account: string,
  opts: {
    campaignBudget?: number;
    adsetBudget?: number;
    ads?: number;
    status?: 'ACTIVE' | 'PAUSED';
    name?: string;
    /** Landing link of the creative (default https://drama.example/ep1) and its url_tags. */
    link?: string;
    urlTags?: string;
    countries?: string[];
  } = {},
) {
  const status = opts.status ?? 'ACTIVE';
  const pageId = t.user.pages[0].id;
  const pixelId = t.user.pixels[0].id;
  const campaign = await t.graph('POST', `/${account}/campaigns`, {
    name: opts.name ?? 'Drama A',
    objective: 'OUTCOME_SALES',
    status,
    special_ad_categories: [],
    daily_budget: opts.campaignBudget,
    // Required since v24 when the campaign has no budget of its own.
    is_adset_budget_sharing_enabled: opts.campaignBudget ? undefined : false,
  });
  if (campaign.status !== 200) throw new Error(JSON.stringify(campaign.body));
  const adset = await t.graph('POST', `/${account}/adsets`, {
    name: 'Adset 1',
    campaign_id: campaign.body.id,
    status,
    daily_budget: opts.campaignBudget ? undefined : (opts.adsetBudget ?? 5000),
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'OFFSITE_CONVERSIONS',
    promoted_object: { pixel_id: pixelId, custom_event_type: 'PURCHASE' },
    targeting: { geo_locations: { countries: opts.countries ?? ['US', 'CA'] }, targeting_automation: { advantage_audience: 0 } },
  });
  if (adset.status !== 200) throw new Error(JSON.stringify(adset.body));
  const creative = await t.graph('POST', `/${account}/adcreatives`, {
    name: 'Creative 1',
    object_story_spec: { page_id: pageId, link_data: { link: opts.link ?? 'https://drama.example/ep1', message: 'Watch now' } },
    url_tags: opts.urlTags ?? 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}',
  });
  if (creative.status !== 200) throw new Error(JSON.stringify(creative.body));
  const ads: string[] = [];
  for (let i = 0; i < (opts.ads ?? 2); i++) {
    const ad = await t.graph('POST', `/${account}/ads`, { name: `Ad ${i + 1}`, adset_id: adset.body.id, status, creative: { creative_id: creative.body.id } });
    if (ad.status !== 200) throw new Error(JSON.stringify(ad.body));
    ads.push(ad.body.id);
  }
  return { campaignId: campaign.body.id as string, adsetId: adset.body.id as string, creativeId: creative.body.id as string, adIds: ads };
}
