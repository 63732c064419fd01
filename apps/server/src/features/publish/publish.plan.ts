import {
  CAPPED_BID_STRATEGIES,
  EU_COUNTRIES,
  GOALS_BY_OBJECTIVE,
  MARKET_TIME_ZONES,
  PIXEL_GOALS,
  PUBLISH_LIMITS,
  both,
  formatMessage,
  type Bilingual,
  type ErrorKey,
  type Lang,
  type PublishDraft,
  type PublishIssue,
  type PublishMoney,
  type PublishPreviewAccount,
  type PublishPreviewAd,
  type PublishPreviewAdset,
  type PublishPreviewCampaign,
  type PublishPreviewCreative,
  type PublishTotals,
} from '@ads/contracts';
import { buildName, unknownTokens, type NameDims } from '../../lib/naming.ts';
import { offsetMinutes } from '../../lib/tz.ts';
import { currencyOffset, toMajor, toMinor } from '../../platform/currency.ts';

// The expansion of a wizard draft into everything a scheme creates (PRODUCT.md "scheme"): per ad
// account its campaigns, their ad sets, the creatives and the ads, each with its name and the
// exact settings the platform will get; plus our own checks of the draft (the rules Meta enforces
// that can be checked before any call: budgets, bids, EU, goals, limits). Pure: everything it
// needs is loaded beforehand (publish.service.ts), so preview and submit expand identically.

/** Minimum daily budgets in USD by billing class (Meta "About minimum budgets"); we bill on impressions. */
const MIN_DAILY_BUDGET_USD = 1;
/** Currencies whose minimum is the full USD figure; every other currency: half of it. */
const FULL_MINIMUM_CURRENCIES = new Set(['USD', 'AUD', 'CAD', 'SGD', 'JPY', 'NZD', 'TWD', 'EUR', 'CHF', 'SEK', 'HKD', 'GBP', 'ILS', 'NOK', 'KRW', 'DKK']);
/** A bid or cost cap: the daily budget must be at least this many times the bid. */
const BUDGET_TO_BID_MULTIPLE = 5;
const DAY_MS = 86_400_000;

export interface PlanAccount {
  id: number;
  platform_id: string;
  name: string;
  currency: string;
  timezone_name: string;
  account_status: number;
  platform: 'dj' | 'ec' | null;
  has_token: boolean;
  /** Pages usable with this account by the publisher, by our id. */
  pages: Map<number, { platform_id: string; name: string }>;
  /** Pixels shared with this account, by our id. */
  pixels: Map<number, { platform_id: string; name: string }>;
}

export interface PlanMaterial {
  id: number;
  kind: 'video' | 'image';
  platform: 'dj' | 'ec';
  file_name: string;
  has_thumb: boolean;
  drama_id: number | null;
  product_id: number | null;
  editor: string | null;
}

export interface PlanInput {
  draft: PublishDraft;
  schemeName: string;
  publisher: { id: number; account: string; name: string };
  title: { kind: 'drama' | 'product'; id: number; name: string } | null;
  accounts: Map<number, PlanAccount>;
  materials: Map<number, PlanMaterial>;
  /** Pages of the posts used as creatives. */
  postPages: Map<number, { platform_id: string; name: string }>;
  /** Units of a currency per US dollar today; null when unknown. */
  rate(currency: string): number | null;
  /** `YYYYMMDD` of the {date} token. */
  date: string;
  now: Date;
}

/** What a creative item creates, with material ids (the job turns them into the account's video ids and image hashes). */
export interface CreativeSpec {
  kind: 'video' | 'image' | 'post' | 'dynamic';
  page_platform_id: string | null;
  video_material_id: number | null;
  /** The cover image material; null: the video's own thumbnail (uploaded as an image by the job). */
  cover_material_id: number | null;
  image_material_id: number | null;
  primary_text: string | null;
  headline: string | null;
  description: string | null;
  post_id: string | null;
  dynamic: { video_material_ids: number[]; image_material_ids: number[]; bodies: string[]; titles: string[]; descriptions: string[] } | null;
  link: string;
  url_tags: string;
  call_to_action: string;
}

export interface CampaignSpec {
  objective: string;
  special_ad_categories: string[];
  daily_budget_minor: number | null;
  lifetime_budget_minor: number | null;
  bid_strategy: string;
  stop_time: string | null;
}

export interface AdsetSpec {
  daily_budget_minor: number | null;
  lifetime_budget_minor: number | null;
  /** Only when the ad set holds the budget (the campaign's otherwise). */
  bid_strategy: string | null;
  bid_amount_minor: number | null;
  roas_floor: number | null;
  billing_event: string;
  optimization_goal: string;
  promoted_object: { pixel_id: string; custom_event_type: string } | null;
  targeting: Record<string, unknown>;
  start_time: string | null;
  end_time: string | null;
  attribution_spec: { event_type: string; window_days: number }[];
  dsa_beneficiary: string | null;
  dsa_payor: string | null;
  dynamic_creative: boolean;
}

export interface PlanItem {
  key: string;
  level: 'campaign' | 'adset' | 'creative' | 'ad';
  ad_account_id: number;
  parent_key: string | null;
  creative_key: string | null;
  name: string;
  spec: CampaignSpec | AdsetSpec | CreativeSpec | Record<string, never>;
  material_id: number | null;
  cover_material_id: number | null;
}

export interface Plan {
  issues: PlanIssue[];
  accounts: PublishPreviewAccount[];
  totals: PublishTotals;
  /** Every item to create, in creation order: per account campaigns, ad sets, creatives, ads. */
  items: PlanItem[];
  /** Materials each account needs on the platform. */
  materials: Map<number, Set<number>>;
}

/** An issue as the plan finds it: a message key (ours) or a text (the platform's words). */
export interface PlanIssue {
  level: 'error' | 'warning';
  source: 'rules' | 'platform';
  code: string;
  text: Bilingual;
  field: string | null;
  ad_account_id: number | null;
  key: string | null;
}

export function issueOf(level: 'error' | 'warning', key: ErrorKey, params: Record<string, unknown>, where: { field?: string | null; ad_account_id?: number | null; key?: string | null } = {}): PlanIssue {
  return { level, source: 'rules', code: key, text: both(key, params), field: where.field ?? null, ad_account_id: where.ad_account_id ?? null, key: where.key ?? null };
}

export function issueIn(i: PlanIssue, lang: Lang): PublishIssue {
  return { level: i.level, source: i.source, code: i.code, message: i.text[lang], field: i.field, ad_account_id: i.ad_account_id, key: i.key };
}

/** Major units in a currency, as people read them ("50.00 USD", "7500 JPY"). */
export function formatMoney(minor: number, currency: string): string {
  const offset = currencyOffset(currency);
  return `${(minor / offset).toFixed(offset === 1 ? 0 : 2)} ${currency}`;
}

/** The smallest daily budget (minor units) of an ad set billed on impressions in `currency`; null without a rate. */
export function minimumDailyBudget(currency: string, unitsPerUsd: number | null): number | null {
  if (unitsPerUsd === null) return null;
  const usd = MIN_DAILY_BUDGET_USD * (FULL_MINIMUM_CURRENCIES.has(currency) ? 1 : 0.5);
  return Math.ceil(usd * unitsPerUsd * currencyOffset(currency) - 1e-9);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** `YYYY-MM-DDTHH:mm` in `tz` → the instant; null when the zone is unknown. */
export function wallTimeToInstant(local: string, tz: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return null;
  }
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let t = wall - offsetMinutes(wall, tz) * 60_000;
  t = wall - offsetMinutes(t, tz) * 60_000;
  return new Date(t);
}

/** The zone the ad sets' start time is read in: the chosen one, else the first country's market zone, else the account's. */
export function startZone(draft: PublishDraft, accountZone: string): string {
  return draft.adset.start_time_zone || MARKET_TIME_ZONES[draft.adset.countries[0] ?? ''] || accountZone;
}

const ATTRIBUTION_SPECS: Record<string, { event_type: string; window_days: number }[]> = {
  '7d_click_1d_view': [
    { event_type: 'CLICK_THROUGH', window_days: 7 },
    { event_type: 'VIEW_THROUGH', window_days: 1 },
  ],
  '7d_click': [{ event_type: 'CLICK_THROUGH', window_days: 7 }],
  '1d_click': [{ event_type: 'CLICK_THROUGH', window_days: 1 }],
  '1d_click_1d_view': [
    { event_type: 'CLICK_THROUGH', window_days: 1 },
    { event_type: 'VIEW_THROUGH', window_days: 1 },
  ],
  '7d_click_1d_view_1d_engaged_view': [
    { event_type: 'CLICK_THROUGH', window_days: 7 },
    { event_type: 'VIEW_THROUGH', window_days: 1 },
    { event_type: 'ENGAGED_VIDEO_VIEW', window_days: 1 },
  ],
};

function targetingOf(draft: PublishDraft): Record<string, unknown> {
  const a = draft.adset;
  const t: Record<string, unknown> = {
    geo_locations: { countries: a.countries },
    age_min: a.age_min,
    age_max: a.age_max,
    // Since v23 the Advantage+ audience flag must be sent explicitly (reference §4).
    targeting_automation: { advantage_audience: a.advantage_audience ? 1 : 0 },
  };
  if (a.genders !== 'all') t.genders = [a.genders === 'male' ? 1 : 2];
  if (a.placements.mode === 'manual') {
    const p = a.placements;
    t.publisher_platforms = p.publisher_platforms;
    if (p.facebook_positions.length) t.facebook_positions = p.facebook_positions;
    if (p.instagram_positions.length) t.instagram_positions = p.instagram_positions;
    if (p.audience_network_positions.length) t.audience_network_positions = p.audience_network_positions;
    if (p.messenger_positions.length) t.messenger_positions = p.messenger_positions;
  }
  return t;
}

interface Variant {
  creative: PublishPreviewCreative;
  /** Name tokens of the ad: {material}, {editor}. */
  material: string | null;
  editor: string | null;
  spec: Omit<CreativeSpec, 'page_platform_id' | 'link' | 'url_tags' | 'call_to_action'>;
}

const stem = (fileName: string) => fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').slice(0, 60);

/** The ads one ad set's share of the combination makes (contracts combinationCount counts them). */
function variantsOf(input: PlanInput): Variant[] {
  const c = input.draft.creatives;
  if (c.source === 'posts') {
    return c.posts.map((p) => ({
      creative: { kind: 'post', material_id: null, material_name: null, cover_material_id: null, material_ids: [], primary_text: null, headline: null, description: null, post_id: p.post_id },
      material: p.post_id.split('_')[1] ?? p.post_id,
      editor: null,
      spec: { kind: 'post', video_material_id: null, cover_material_id: null, image_material_id: null, primary_text: null, headline: null, description: null, post_id: p.post_id, dynamic: null },
    }));
  }
  const texts = c.texts ?? { primary_texts: [], headlines: [], descriptions: [] };
  const media = [
    ...c.videos.map((v) => ({ kind: 'video' as const, id: v.material_id, cover: v.cover_material_id ?? null })),
    ...c.images.map((id) => ({ kind: 'image' as const, id, cover: null })),
  ];
  if (!media.length) return [];
  const textAt = (i: number) => ({
    primary_text: texts.primary_texts.length ? texts.primary_texts[i % texts.primary_texts.length]! : null,
    headline: texts.headlines.length ? texts.headlines[i % texts.headlines.length]! : null,
    description: texts.descriptions.length ? texts.descriptions[i % texts.descriptions.length]! : null,
  });
  const nameOf = (id: number) => input.materials.get(id)?.file_name ?? `#${id}`;
  const one = (m: (typeof media)[number], textIndex: number): Variant => {
    const t = textAt(textIndex);
    const material = input.materials.get(m.id);
    return {
      creative: { kind: m.kind, material_id: m.id, material_name: nameOf(m.id), cover_material_id: m.cover, material_ids: [m.id], ...t, post_id: null },
      material: stem(nameOf(m.id)),
      editor: material?.editor ?? null,
      spec: { kind: m.kind, video_material_id: m.kind === 'video' ? m.id : null, cover_material_id: m.cover, image_material_id: m.kind === 'image' ? m.id : null, ...t, post_id: null, dynamic: null },
    };
  };
  if (c.combination === 'dynamic') {
    const first = media[0]!;
    return [
      {
        creative: {
          kind: 'dynamic',
          material_id: first.id,
          material_name: nameOf(first.id),
          cover_material_id: first.cover,
          material_ids: media.map((m) => m.id),
          primary_text: texts.primary_texts[0] ?? null,
          headline: texts.headlines[0] ?? null,
          description: texts.descriptions[0] ?? null,
          post_id: null,
        },
        material: stem(nameOf(first.id)),
        editor: input.materials.get(first.id)?.editor ?? null,
        spec: {
          kind: 'dynamic',
          video_material_id: null,
          cover_material_id: null,
          image_material_id: null,
          primary_text: null,
          headline: null,
          description: null,
          post_id: null,
          dynamic: {
            video_material_ids: media.filter((m) => m.kind === 'video').map((m) => m.id),
            image_material_ids: media.filter((m) => m.kind === 'image').map((m) => m.id),
            bodies: texts.primary_texts,
            titles: texts.headlines,
            descriptions: texts.descriptions,
          },
        },
      },
    ];
  }
  if (c.combination === 'per_video') return media.map((m, i) => one(m, i));
  const n = Math.max(1, texts.primary_texts.length);
  return media.flatMap((m) => Array.from({ length: n }, (_, i) => one(m, i)));
}

/** Videos' covers: the chosen image, or a thumbnail the video has (uploaded as an image). */
function coverMaterials(v: Variant): number[] {
  const s = v.spec;
  if (s.kind === 'dynamic') return [...(s.dynamic?.video_material_ids ?? []), ...(s.dynamic?.image_material_ids ?? [])];
  return [s.video_material_id, s.cover_material_id, s.image_material_id].filter((x): x is number => x !== null);
}

/** Makes names unique under one parent by adding "-2", "-3"… (lookups by name and parent must find one object). */
function uniqueNamer() {
  const seen = new Map<string, Set<string>>();
  let suffixed = 0;
  return {
    name(parent: string, name: string): string {
      const set = seen.get(parent) ?? new Set<string>();
      seen.set(parent, set);
      let out = name || '-';
      for (let n = 2; set.has(out); n++) out = `${name}-${n}`;
      if (out !== name) suffixed++;
      set.add(out);
      return out;
    },
    get suffixed() {
      return suffixed;
    },
  };
}

/**
 * Expands the draft. Issues collect every check that fails; the plan is built as far as it can
 * be regardless (the preview shows what would be created even while an error blocks it).
 */
export function expandDraft(input: PlanInput): Plan {
  const { draft } = input;
  const issues: PlanIssue[] = [];
  const err = (key: ErrorKey, params: Record<string, unknown> = {}, where: Parameters<typeof issueOf>[3] = {}): undefined => {
    issues.push(issueOf('error', key, params, where));
  };
  const warn = (key: ErrorKey, params: Record<string, unknown> = {}, where: Parameters<typeof issueOf>[3] = {}): undefined => {
    issues.push(issueOf('warning', key, params, where));
  };

  // ---- what ------------------------------------------------------------------------------
  if (draft.platform === 'dj' && !draft.what.drama_id) err('PUB_NEED_DRAMA', {}, { field: 'what.drama_id' });
  if (draft.platform === 'ec' && !draft.what.product_id) err('PUB_NEED_PRODUCT', {}, { field: 'what.product_id' });
  if ((draft.what.drama_id || draft.what.product_id) && !input.title) err(draft.platform === 'dj' ? 'PUB_DRAMA_NOT_FOUND' : 'PUB_PRODUCT_NOT_FOUND', {}, { field: draft.platform === 'dj' ? 'what.drama_id' : 'what.product_id' });

  // ---- creatives ---------------------------------------------------------------------------
  const c = draft.creatives;
  if (c.source === 'posts') {
    if (!c.posts.length) err('PUB_NO_POSTS', {}, { field: 'creatives.posts' });
    c.posts.forEach((p, i) => {
      if (!input.postPages.has(p.page_id)) err('PUB_POST_NOT_FOUND', { post: p.post_id }, { field: `creatives.posts.${i}` });
    });
  } else {
    if (!c.videos.length && !c.images.length) err('PUB_NO_MEDIA', {}, { field: 'creatives.videos' });
    if (!c.texts?.primary_texts.length) err('PUB_NO_TEXTS', {}, { field: 'creatives.texts.primary_texts' });
    const check = (id: number, kind: 'video' | 'image', field: string, asCover = false) => {
      const m = input.materials.get(id);
      if (!m) return err('PUB_MATERIAL_NOT_FOUND', { id }, { field });
      if (m.kind !== kind) return err('PUB_MATERIAL_KIND', { name: m.file_name, kind: kind === 'video' ? { zh: '视频', en: 'a video' } : { zh: '图片', en: 'an image' } }, { field });
      if (m.platform !== draft.platform) err('PUB_MATERIAL_PLATFORM', { name: m.file_name }, { field });
      if (!asCover && input.title && ((input.title.kind === 'drama' && m.drama_id && m.drama_id !== input.title.id) || (input.title.kind === 'product' && m.product_id && m.product_id !== input.title.id))) {
        warn('PUB_MATERIAL_OTHER_TITLE', { name: m.file_name }, { field });
      }
      return m;
    };
    c.videos.forEach((v, i) => {
      const m = check(v.material_id, 'video', `creatives.videos.${i}.material_id`);
      if (v.cover_material_id) check(v.cover_material_id, 'image', `creatives.videos.${i}.cover_material_id`, true);
      else if (m && !m.has_thumb) err('PUB_VIDEO_NO_COVER', { name: m.file_name }, { field: `creatives.videos.${i}.cover_material_id` });
    });
    c.images.forEach((id, i) => check(id, 'image', `creatives.images.${i}`));
    // Meta's asset feed: at most 10 videos and 10 images, 5 each of bodies, titles and descriptions.
    const t = c.texts;
    const texts = Math.max(t?.primary_texts.length ?? 0, t?.headlines.length ?? 0, t?.descriptions.length ?? 0);
    if (c.combination === 'dynamic' && (c.videos.length > PUBLISH_LIMITS.dynamicVideos || c.images.length > PUBLISH_LIMITS.dynamicVideos || texts > PUBLISH_LIMITS.dynamicTexts)) {
      err('PUB_DYNAMIC_LIMIT', { videos: PUBLISH_LIMITS.dynamicVideos, texts: PUBLISH_LIMITS.dynamicTexts }, { field: 'creatives.combination' });
    }
  }

  // ---- settings ----------------------------------------------------------------------------
  const camp = draft.campaign;
  const set = draft.adset;
  if (!GOALS_BY_OBJECTIVE[camp.objective].includes(set.optimization_goal)) err('PUB_GOAL_OBJECTIVE', { goal: set.optimization_goal, objective: camp.objective }, { field: 'adset.optimization_goal' });
  const needsPixel = PIXEL_GOALS.includes(set.optimization_goal);
  if (needsPixel && !set.conversion_event) err('PUB_EVENT_REQUIRED', { goal: set.optimization_goal }, { field: 'adset.conversion_event' });
  const capped = CAPPED_BID_STRATEGIES.includes(camp.bid_strategy);
  const minRoas = camp.bid_strategy === 'LOWEST_COST_WITH_MIN_ROAS';
  if (capped && !camp.bid_amount) err('PUB_BID_REQUIRED', { strategy: camp.bid_strategy }, { field: 'campaign.bid_amount' });
  if (!capped && camp.bid_amount) warn('PUB_BID_NOT_USED', { strategy: camp.bid_strategy }, { field: 'campaign.bid_amount' });
  if (minRoas && !camp.roas_floor) err('PUB_ROAS_REQUIRED', {}, { field: 'campaign.roas_floor' });
  if (minRoas && set.optimization_goal !== 'VALUE') err('PUB_ROAS_NEEDS_VALUE', {}, { field: 'adset.optimization_goal' });
  if (set.age_min > set.age_max) err('PUB_AGES', {}, { field: 'adset.age_min' });
  if (set.advantage_audience && (set.age_min !== 18 || set.age_max !== 65)) warn('PUB_ADVANTAGE_AGES', {}, { field: 'adset.advantage_audience' });
  if (set.placements.mode === 'manual') {
    const p = set.placements;
    for (const [platform, positions] of [
      ['facebook', p.facebook_positions],
      ['instagram', p.instagram_positions],
      ['audience_network', p.audience_network_positions],
      ['messenger', p.messenger_positions],
    ] as const) {
      if (positions.length && !p.publisher_platforms.includes(platform)) err('PUB_PLACEMENTS', { platform }, { field: 'adset.placements' });
    }
  }
  const eu = set.countries.filter((x) => (EU_COUNTRIES as readonly string[]).includes(x));
  if (eu.length && (!set.dsa_beneficiary?.trim() || !set.dsa_payor?.trim())) err('PUB_EU_DSA', { countries: eu.join(', ') }, { field: !set.dsa_beneficiary?.trim() ? 'adset.dsa_beneficiary' : 'adset.dsa_payor' });
  const tagsOk = (t: string) => !t || (/^[^\s]+$/.test(t) && t.split('&').every((kv) => /^[^=&]+=[^&]*$/.test(kv)));
  if (!tagsOk(draft.ad.url_tags)) err('PUB_URL_TAGS_INVALID', {}, { field: 'ad.url_tags' });
  for (const level of ['campaign', 'adset', 'ad'] as const) for (const token of unknownTokens(draft.naming[level])) err('PUB_NAME_TOKEN', { token: `{${token}}` }, { field: `naming.${level}` });
  if (draft.launch.mode === 'at' && new Date(draft.launch.at).getTime() <= input.now.getTime()) err('PUB_LAUNCH_PAST', {}, { field: 'launch.at' });
  if (camp.budget_kind === 'lifetime' && !camp.end_local) err('PUB_LIFETIME_NEEDS_END', {}, { field: 'campaign.end_local' });

  // ---- structure ---------------------------------------------------------------------------
  const variants = variantsOf(input);
  const st = draft.structure;
  const adsetCount = st.campaigns_per_account * st.adsets_per_campaign;
  const perAdset = st.ads_per_adset ?? variants.length;
  if (perAdset > PUBLISH_LIMITS.adsPerAdset) err('PUB_ADS_PER_ADSET', { max: PUBLISH_LIMITS.adsPerAdset, count: perAdset }, { field: st.ads_per_adset === null ? 'creatives' : 'structure.ads_per_adset' });
  if (st.ads_per_adset !== null && variants.length) {
    const capacity = adsetCount * st.ads_per_adset;
    if (variants.length > capacity) warn('PUB_ADS_LEFT_OUT', { count: variants.length - capacity }, { field: 'structure.ads_per_adset' });
    const empty = adsetCount - Math.ceil(variants.length / st.ads_per_adset);
    if (empty > 0) err('PUB_ADSET_EMPTY', { count: empty, ads: variants.length }, { field: 'structure.adsets_per_campaign' });
  }

  // ---- per account -------------------------------------------------------------------------
  const seen = new Set<number>();
  const accounts: PublishPreviewAccount[] = [];
  const items: PlanItem[] = [];
  const materials = new Map<number, Set<number>>();
  const daily = new Map<string, number>();
  let dailyUsd = 0;
  let lifetimeUsd = 0;
  const namer = uniqueNamer();
  let totalAds = 0;

  draft.where.accounts.forEach((w, index) => {
    const field = (f: string) => `where.accounts.${index}.${f}`;
    const a = input.accounts.get(w.ad_account_id);
    if (!a) return;
    const at = { ad_account_id: a.id };
    if (seen.has(a.id)) {
      err('PUB_ACCOUNT_DUPLICATE', { name: a.name }, { ...at, field: field('ad_account_id') });
      return;
    }
    seen.add(a.id);
    // ACTIVE and IN_GRACE_PERIOD accounts may create objects; the others only stop them.
    if (a.account_status !== 1 && a.account_status !== 9) err('PUB_ACCOUNT_INACTIVE', { name: a.name, status: a.account_status }, { ...at, field: field('ad_account_id') });
    if (!a.has_token) err('PUB_ACCOUNT_NO_TOKEN', { name: a.name }, { ...at, field: field('ad_account_id') });
    if (a.platform && a.platform !== draft.platform) warn('PUB_ACCOUNT_OTHER_PLATFORM', { name: a.name }, { ...at, field: field('ad_account_id') });
    const page = a.pages.get(w.page_id) ?? null;
    if (!page && c.source === 'materials') err('PUB_PAGE_NOT_USABLE', { name: a.name }, { ...at, field: field('page_id') });
    const pixel = w.pixel_id ? (a.pixels.get(w.pixel_id) ?? null) : null;
    if (needsPixel && !w.pixel_id) err('PUB_PIXEL_REQUIRED', { name: a.name, goal: set.optimization_goal }, { ...at, field: field('pixel_id') });
    if (w.pixel_id && !pixel) err('PUB_PIXEL_NOT_SHARED', { name: a.name }, { ...at, field: field('pixel_id') });
    let linkOk: boolean;
    try {
      const u = new URL(w.link);
      linkOk = u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      linkOk = false;
    }
    if (!linkOk) err('PUB_LINK_INVALID', { name: a.name }, { ...at, field: field('link') });
    if (!tagsOk(w.url_tags)) err('PUB_URL_TAGS_INVALID', {}, { ...at, field: field('url_tags') });
    const urlTags = [w.url_tags, draft.ad.url_tags].filter(Boolean).join('&');

    // Money in the account currency.
    const rate = input.rate(a.currency);
    if (rate === null) err('PUB_NO_RATE', { currency: a.currency }, { ...at, field: 'campaign.budget' });
    const toAccountMinor = (major: number) => (draft.campaign.budget_basis === 'usd' ? (rate === null ? 0 : toMinor(major * rate, a.currency)) : toMinor(major, a.currency));
    const budgetMinor = w.budget ? toMinor(w.budget, a.currency) : toAccountMinor(camp.budget);
    const bidMinor = capped && camp.bid_amount ? toAccountMinor(camp.bid_amount) : null;
    const usdOf = (minor: number) => (rate ? round2(toMajor(minor, a.currency) / rate) : 0);
    const money = (minor: number): PublishMoney => ({ kind: camp.budget_kind, currency: a.currency, minor, major: toMajor(minor, a.currency), usd: usdOf(minor) });

    // Schedule: the ad sets' start and (lifetime) end, read in the target market's zone.
    const zone = startZone(draft, a.timezone_name);
    let start: Date | null = null;
    let end: Date | null = null;
    if (set.start_local) {
      start = wallTimeToInstant(set.start_local, zone);
      if (!start) err('PUB_START_INVALID', {}, { ...at, field: 'adset.start_local' });
      else if (start.getTime() <= input.now.getTime() && index === 0) warn('PUB_START_PAST', {}, { field: 'adset.start_local' });
    }
    if (camp.end_local) {
      end = wallTimeToInstant(camp.end_local, zone);
      if (!end) err('PUB_START_INVALID', {}, { ...at, field: 'campaign.end_local' });
      else if (end.getTime() <= (start ?? input.now).getTime() && index === 0) err('PUB_END_BEFORE_START', {}, { field: 'campaign.end_local' });
    }
    const lifetime = camp.budget_kind === 'lifetime';
    const days = lifetime && end ? Math.max(1, Math.ceil((end.getTime() - (start ?? input.now).getTime()) / DAY_MS)) : 1;

    // Budget checks (one per account: every holder of the budget gets the same amount).
    const minimum = minimumDailyBudget(a.currency, rate);
    const holder = camp.budget_level === 'campaign' ? 'campaign' : 'adset';
    if (minimum !== null && budgetMinor < minimum * days) {
      err('PUB_BUDGET_TOO_LOW', { name: a.name, amount: formatMoney(budgetMinor, a.currency), min: formatMoney(minimum * days, a.currency) }, { ...at, field: w.budget ? field('budget') : 'campaign.budget' });
    }
    if (bidMinor !== null && budgetMinor < bidMinor * BUDGET_TO_BID_MULTIPLE * days) {
      err('PUB_BUDGET_BELOW_BID', { name: a.name, amount: formatMoney(budgetMinor, a.currency), min: formatMoney(bidMinor * BUDGET_TO_BID_MULTIPLE * days, a.currency) }, { ...at, field: w.budget ? field('budget') : 'campaign.budget' });
    }

    const dims = (extra: NameDims): NameDims => ({
      drama: input.title?.kind === 'drama' ? input.title.name : undefined,
      product: input.title?.kind === 'product' ? input.title.name : undefined,
      scheme: input.schemeName,
      optimizer: input.publisher.account,
      country: set.countries[0],
      account: a.name,
      date: input.date,
      ...extra,
    });
    const nameIt = (template: string, parent: string, extra: NameDims) => {
      const built = buildName(template, dims(extra), PUBLISH_LIMITS.nameMax + 1);
      if (built.length > PUBLISH_LIMITS.nameMax) err('PUB_NAME_TOO_LONG', { max: PUBLISH_LIMITS.nameMax, name: built.slice(0, 60) }, { ...at, field: 'naming' });
      return namer.name(parent, built.slice(0, PUBLISH_LIMITS.nameMax));
    };

    const accountKey = `a${a.id}`;
    const needed = new Set<number>();
    // One creative per variant per account, shared by the ads that use it.
    const creativeKeys = variants.map((v, i) => {
      const key = `${accountKey}.v${i + 1}`;
      if (v.spec.kind !== 'post') for (const id of coverMaterials(v)) needed.add(id);
      items.push({
        key,
        level: 'creative',
        ad_account_id: a.id,
        parent_key: null,
        creative_key: null,
        name: key,
        spec: { ...v.spec, page_platform_id: page?.platform_id ?? null, link: w.link, url_tags: urlTags, call_to_action: draft.ad.call_to_action } satisfies CreativeSpec,
        material_id: v.spec.video_material_id ?? v.spec.image_material_id,
        cover_material_id: v.spec.cover_material_id,
      });
      return key;
    });
    materials.set(a.id, needed);

    const campaignItems: PlanItem[] = [];
    const adsetItems: PlanItem[] = [];
    const adItems: PlanItem[] = [];
    const campaigns: PublishPreviewCampaign[] = [];
    let variantCursor = 0;
    const campaignBudget = camp.budget_level === 'campaign';
    for (let ci = 1; ci <= st.campaigns_per_account; ci++) {
      const cKey = `${accountKey}.c${ci}`;
      const cName = nameIt(draft.naming.campaign, accountKey, { seq: String(ci) });
      const cSpec: CampaignSpec = {
        objective: camp.objective,
        special_ad_categories: camp.special_ad_categories,
        daily_budget_minor: campaignBudget && !lifetime ? budgetMinor : null,
        lifetime_budget_minor: campaignBudget && lifetime ? budgetMinor : null,
        bid_strategy: camp.bid_strategy,
        stop_time: campaignBudget && lifetime && end ? end.toISOString() : null,
      };
      campaignItems.push({ key: cKey, level: 'campaign', ad_account_id: a.id, parent_key: null, creative_key: null, name: cName, spec: cSpec, material_id: null, cover_material_id: null });
      const adsets: PublishPreviewAdset[] = [];
      for (let si = 1; si <= st.adsets_per_campaign; si++) {
        const sKey = `${cKey}.s${si}`;
        const sName = nameIt(draft.naming.adset, cKey, { seq: String(si) });
        const sSpec: AdsetSpec = {
          daily_budget_minor: !campaignBudget && !lifetime ? budgetMinor : null,
          lifetime_budget_minor: !campaignBudget && lifetime ? budgetMinor : null,
          bid_strategy: campaignBudget ? null : camp.bid_strategy,
          bid_amount_minor: bidMinor,
          roas_floor: minRoas && camp.roas_floor ? Math.round(camp.roas_floor * 10_000) : null,
          billing_event: 'IMPRESSIONS',
          optimization_goal: set.optimization_goal,
          promoted_object: needsPixel && pixel && set.conversion_event ? { pixel_id: pixel.platform_id, custom_event_type: set.conversion_event } : null,
          targeting: targetingOf(draft),
          start_time: start?.toISOString() ?? null,
          end_time: lifetime && end ? end.toISOString() : null,
          attribution_spec: ATTRIBUTION_SPECS[set.attribution] ?? [],
          dsa_beneficiary: eu.length ? (set.dsa_beneficiary ?? null) : null,
          dsa_payor: eu.length ? (set.dsa_payor ?? null) : null,
          dynamic_creative: c.source === 'materials' && c.combination === 'dynamic',
        };
        adsetItems.push({ key: sKey, level: 'adset', ad_account_id: a.id, parent_key: cKey, creative_key: null, name: sName, spec: sSpec, material_id: null, cover_material_id: null });
        const share = st.ads_per_adset === null ? variants.map((_, i) => i) : Array.from({ length: Math.max(0, Math.min(st.ads_per_adset, variants.length - variantCursor)) }, (_, k) => variantCursor + k);
        if (st.ads_per_adset !== null) variantCursor += share.length;
        const ads: PublishPreviewAd[] = share.map((vi, k) => {
          const v = variants[vi]!;
          const adKey = `${sKey}.ad${k + 1}`;
          const adName = nameIt(draft.naming.ad, sKey, { seq: String(k + 1), material: v.material ?? undefined, editor: v.editor ?? undefined });
          adItems.push({ key: adKey, level: 'ad', ad_account_id: a.id, parent_key: sKey, creative_key: creativeKeys[vi]!, name: adName, spec: {}, material_id: v.spec.video_material_id ?? v.spec.image_material_id, cover_material_id: v.spec.cover_material_id });
          return { key: adKey, name: adName, creative: v.creative, link: w.link, url_tags: urlTags, call_to_action: draft.ad.call_to_action };
        });
        totalAds += ads.length;
        adsets.push({
          key: sKey,
          name: sName,
          budget: campaignBudget ? null : money(budgetMinor),
          bid_amount: bidMinor === null ? null : { currency: a.currency, minor: bidMinor, major: toMajor(bidMinor, a.currency), usd: usdOf(bidMinor) },
          countries: set.countries,
          optimization_goal: set.optimization_goal,
          conversion_event: needsPixel ? set.conversion_event : null,
          pixel: pixel && w.pixel_id ? { id: w.pixel_id, name: pixel.name } : null,
          start_time: start?.toISOString() ?? null,
          start_local: start ? set.start_local! : null,
          start_time_zone: start ? zone : null,
          end_time: lifetime && end ? end.toISOString() : null,
          ads,
        });
      }
      campaigns.push({ key: cKey, name: cName, objective: camp.objective, bid_strategy: camp.bid_strategy, budget: campaignBudget ? money(budgetMinor) : null, adsets });
    }
    // Creatives no ad uses (more combinations than room) are not created.
    const used = new Set(adItems.map((x) => x.creative_key));
    const accountCreatives = items.filter((x) => x.ad_account_id === a.id && x.level === 'creative');
    for (const x of accountCreatives) if (!used.has(x.key)) items.splice(items.indexOf(x), 1);
    // Creation order: campaigns, ad sets, creatives, ads (creatives were pushed above).
    const kept = items.filter((x) => x.ad_account_id === a.id);
    for (const x of kept) items.splice(items.indexOf(x), 1);
    items.push(...campaignItems, ...adsetItems, ...kept, ...adItems);

    const holders = holder === 'campaign' ? st.campaigns_per_account : adsetCount;
    const accountBudget = budgetMinor * holders;
    const counts = { campaigns: st.campaigns_per_account, adsets: adsetCount, ads: adItems.length };
    if (!lifetime) {
      daily.set(a.currency, (daily.get(a.currency) ?? 0) + accountBudget);
      dailyUsd += usdOf(accountBudget);
    } else lifetimeUsd += usdOf(accountBudget);
    accounts.push({
      ad_account_id: a.id,
      platform_id: a.platform_id,
      name: a.name,
      currency: a.currency,
      timezone_name: a.timezone_name,
      page: page ? { id: w.page_id, name: page.name, platform_id: page.platform_id } : null,
      pixel: pixel && w.pixel_id ? { id: w.pixel_id, name: pixel.name, platform_id: pixel.platform_id } : null,
      campaigns,
      materials_to_push: [...needed],
      counts,
      daily_budget: lifetime ? null : { currency: a.currency, minor: accountBudget, major: toMajor(accountBudget, a.currency), usd: usdOf(accountBudget) },
    });
  });

  if (totalAds > PUBLISH_LIMITS.adsPerScheme) err('PUB_TOO_MANY_ADS', { max: PUBLISH_LIMITS.adsPerScheme, count: totalAds }, { field: 'structure' });
  if (namer.suffixed) warn('PUB_NAME_SUFFIXED', { count: namer.suffixed }, { field: 'naming' });

  const totals: PublishTotals = {
    accounts: accounts.length,
    campaigns: accounts.reduce((n, a) => n + a.counts.campaigns, 0),
    adsets: accounts.reduce((n, a) => n + a.counts.adsets, 0),
    ads: accounts.reduce((n, a) => n + a.counts.ads, 0),
    daily_budget: [...daily].map(([currency, minor]) => {
      const r = input.rate(currency);
      return { currency, minor, major: toMajor(minor, currency), usd: r ? round2(toMajor(minor, currency) / r) : 0 };
    }),
    daily_budget_usd: round2(dailyUsd),
    lifetime_budget_usd: round2(lifetimeUsd),
  };
  return { issues, accounts, totals, items, materials };
}

/** An issue's text in the caller's language, for one-line refusals. */
export const issueText = (i: PlanIssue, lang: Lang) => i.text[lang] ?? formatMessage('INTERNAL', lang);
