import {
  CAPPED_BID_STRATEGIES,
  DEFAULT_PUBLISH_NAMING,
  DEFAULT_PUBLISH_NAMING_EC,
  EU_COUNTRIES,
  MARKET_TIME_ZONES,
  NAME_TOKENS,
  PIXEL_GOALS,
  type Platform,
  type PublishAccount,
  type PublishCampaign,
  type PublishDraft,
  type PublishAd,
  type PublishAdset,
  type PublishNaming,
  type PublishStructure,
  type PublishTemplateSettings,
} from '@ads/contracts';

/**
 * The wizard's form values: the draft of the contracts (steps 1–4 as they are sent), except the
 * launch, which people pick as a wall time in a zone and the draft carries as an instant.
 */
export interface WizardValues {
  scheme_name?: string | null;
  what: { drama_id?: number | null; episode?: number | null; product_id?: number | null };
  creatives: {
    source: 'materials' | 'posts';
    videos: { material_id: number; cover_material_id?: number | null }[];
    images: number[];
    texts: { primary_texts: string[]; headlines: string[]; descriptions: string[]; language?: string | null };
    combination: 'cartesian' | 'per_video' | 'dynamic';
    posts: { page_id?: number; post_id?: string }[];
  };
  where: { accounts: WizardAccount[] };
  structure: PublishStructure;
  campaign: Omit<PublishCampaign, 'budget'> & { budget?: number | null };
  adset: PublishAdset;
  ad: PublishAd;
  naming: PublishNaming;
  launch: WizardLaunch;
}

/** An account of step 3 as the form holds it (page and link may still be empty). */
export type WizardAccount = Omit<PublishAccount, 'page_id' | 'link'> & { page_id?: number | null; link?: string };

export interface WizardLaunch {
  mode: 'paused' | 'now' | 'at';
  /** `YYYY-MM-DDTHH:mm` in `zone`. */
  local?: string | null;
  zone?: string | null;
}

export const WIZARD_STEPS = ['what', 'creatives', 'where', 'settings', 'preview', 'submit'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export const namingDefaults = (platform: Platform): PublishNaming => ({ ...(platform === 'dj' ? DEFAULT_PUBLISH_NAMING : DEFAULT_PUBLISH_NAMING_EC) });

/** A new wizard's values: the contract defaults, one primary text slot, US, paused. */
export function defaultValues(platform: Platform): WizardValues {
  return {
    scheme_name: null,
    what: { drama_id: null, episode: platform === 'dj' ? 1 : null, product_id: null },
    creatives: { source: 'materials', videos: [], images: [], texts: { primary_texts: [''], headlines: [], descriptions: [], language: null }, combination: 'cartesian', posts: [] },
    where: { accounts: [] },
    structure: { campaigns_per_account: 1, adsets_per_campaign: 1, ads_per_adset: null },
    campaign: {
      objective: 'OUTCOME_SALES',
      budget_level: 'campaign',
      budget_kind: 'daily',
      budget: null,
      budget_basis: 'account',
      bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
      bid_amount: null,
      roas_floor: null,
      end_local: null,
      special_ad_categories: [],
    },
    adset: {
      countries: ['US'],
      age_min: 18,
      age_max: 65,
      genders: 'all',
      advantage_audience: false,
      placements: { mode: 'advantage' },
      optimization_goal: 'OFFSITE_CONVERSIONS',
      conversion_event: 'PURCHASE',
      attribution: '7d_click_1d_view',
      start_local: null,
      start_time_zone: null,
      dsa_beneficiary: null,
      dsa_payor: null,
    },
    ad: { call_to_action: platform === 'dj' ? 'WATCH_MORE' : 'SHOP_NOW', url_tags: '' },
    naming: namingDefaults(platform),
    launch: { mode: 'paused', local: null, zone: null },
  };
}

// ---------------------------------------------------------------------------------------------
// Time zones: people pick wall times in the target market's zone; the draft carries instants.

/** Offset of `zone` from UTC at an instant, in milliseconds. */
function zoneOffsetMs(instantMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(instantMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

/** A wall time `YYYY-MM-DDTHH:mm` in `zone` as an ISO instant (UTC); null when malformed. */
export function wallToInstant(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const guess = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  try {
    const first = zoneOffsetMs(guess, zone);
    let instant = guess - first;
    // Around a DST change the offset at the result may differ from the guess's.
    const second = zoneOffsetMs(instant, zone);
    if (second !== first) instant = guess - second;
    return new Date(instant).toISOString();
  } catch {
    return null;
  }
}

/** An instant as the wall time `YYYY-MM-DDTHH:mm` in `zone`. */
export function instantToWall(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  const shifted = new Date(ms + zoneOffsetMs(ms, zone));
  return shifted.toISOString().slice(0, 16);
}

/** The zone a start time is typed in: the first targeted country's market, else the first account's, else the browser's. */
export function marketZone(countries: readonly string[] | undefined, fallback?: string | null): string {
  const first = countries?.[0];
  return (first && MARKET_TIME_ZONES[first]) || fallback || Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export const isValidZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// Form values ↔ draft.

export const euTargeted = (countries: readonly string[] | undefined) => (countries ?? []).filter((c) => (EU_COUNTRIES as readonly string[]).includes(c));
export const needsPixel = (goal: string | undefined) => (PIXEL_GOALS as readonly string[]).includes(goal ?? '');
export const isCapped = (strategy: string | undefined) => (CAPPED_BID_STRATEGIES as readonly string[]).includes(strategy ?? '');

const clean = (list: readonly (string | null | undefined)[] | undefined) => (list ?? []).map((s) => (s ?? '').trim()).filter(Boolean);
const blankToNull = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);

/**
 * The draft the server reads, from the form's values: empty text slots dropped, fields that do
 * not apply (a bid without a capped strategy, an end without a lifetime budget, EU fields
 * without EU countries) left out, the launch time made an instant.
 */
export function toDraft(platform: Platform, v: WizardValues): PublishDraft {
  const c = v.creatives;
  const camp = v.campaign;
  const set = v.adset;
  const eu = euTargeted(set.countries).length > 0;
  const pixelGoal = needsPixel(set.optimization_goal);
  const launchZone = v.launch.zone || marketZone(set.countries);
  const launchAt = v.launch.mode === 'at' && v.launch.local ? wallToInstant(v.launch.local, launchZone) : null;
  const materials = c.source === 'materials';
  const primary = clean(c.texts.primary_texts);
  return {
    platform,
    scheme_name: blankToNull(v.scheme_name),
    what: platform === 'dj' ? { drama_id: v.what.drama_id ?? null, episode: v.what.episode ?? 1 } : { product_id: v.what.product_id ?? null },
    creatives: {
      source: c.source,
      videos: materials ? c.videos.map((x) => ({ material_id: x.material_id, cover_material_id: x.cover_material_id ?? null })) : [],
      images: materials ? c.images : [],
      ...(materials && primary.length
        ? { texts: { primary_texts: primary, headlines: clean(c.texts.headlines), descriptions: clean(c.texts.descriptions), language: blankToNull(c.texts.language) } }
        : {}),
      combination: c.combination,
      posts: materials ? [] : c.posts.filter((p) => p.page_id && p.post_id?.trim()).map((p) => ({ page_id: p.page_id!, post_id: p.post_id!.trim() })),
    },
    where: {
      accounts: v.where.accounts.map((a) => ({
        ad_account_id: a.ad_account_id,
        page_id: a.page_id ?? 0,
        pixel_id: a.pixel_id ?? null,
        link: (a.link ?? '').trim(),
        url_tags: (a.url_tags ?? '').trim(),
        budget: a.budget ?? null,
      })),
    },
    structure: v.structure,
    campaign: {
      objective: camp.objective,
      budget_level: camp.budget_level,
      budget_kind: camp.budget_kind,
      budget: camp.budget ?? 0,
      budget_basis: camp.budget_basis,
      bid_strategy: camp.bid_strategy,
      bid_amount: isCapped(camp.bid_strategy) ? (camp.bid_amount ?? null) : null,
      roas_floor: camp.bid_strategy === 'LOWEST_COST_WITH_MIN_ROAS' ? (camp.roas_floor ?? null) : null,
      end_local: camp.budget_kind === 'lifetime' ? (camp.end_local ?? null) : null,
      special_ad_categories: camp.special_ad_categories ?? [],
    },
    adset: {
      ...set,
      conversion_event: pixelGoal ? (set.conversion_event ?? null) : null,
      start_local: set.start_local ?? null,
      start_time_zone: set.start_local ? set.start_time_zone || marketZone(set.countries) : null,
      dsa_beneficiary: eu ? blankToNull(set.dsa_beneficiary) : null,
      dsa_payor: eu ? blankToNull(set.dsa_payor) : null,
    },
    ad: { call_to_action: v.ad.call_to_action, url_tags: (v.ad.url_tags ?? '').trim() },
    naming: { campaign: v.naming.campaign.trim(), adset: v.naming.adset.trim(), ad: v.naming.ad.trim() },
    launch: v.launch.mode === 'at' ? { mode: 'at', at: launchAt ?? '' } : { mode: v.launch.mode },
  };
}

/** The creatives in the shape the contracts' counters read (rows still being filled count too). */
export function countable(c: WizardValues['creatives']) {
  return {
    ...c,
    posts: c.posts.map((p) => ({ page_id: p.page_id ?? 0, post_id: p.post_id ?? '' })),
    texts: { primary_texts: c.texts.primary_texts.filter((s) => s?.trim()) },
  };
}

/** The form's values of a stored draft (a past scheme's): the launch's instant back to a wall time in its market zone. */
export function fromDraft(d: PublishDraft): WizardValues {
  const base = defaultValues(d.platform);
  const zone = marketZone(d.adset.countries);
  const t = d.creatives.texts;
  return {
    scheme_name: d.scheme_name ?? null,
    what: { drama_id: d.what.drama_id ?? null, episode: d.what.episode ?? (d.platform === 'dj' ? 1 : null), product_id: d.what.product_id ?? null },
    creatives: {
      source: d.creatives.source,
      videos: d.creatives.videos.map((x) => ({ material_id: x.material_id, cover_material_id: x.cover_material_id ?? null })),
      images: d.creatives.images,
      texts: t ? { primary_texts: t.primary_texts, headlines: t.headlines, descriptions: t.descriptions, language: t.language ?? null } : base.creatives.texts,
      combination: d.creatives.combination,
      posts: d.creatives.posts,
    },
    ...settingsValues(d),
    launch: d.launch.mode === 'at' ? { mode: 'at', local: instantToWall(d.launch.at, zone), zone } : { mode: d.launch.mode, local: null, zone: null },
  };
}

type SettingsPart = Pick<WizardValues, 'where' | 'structure' | 'campaign' | 'adset' | 'ad' | 'naming'>;

function settingsValues(s: Pick<PublishDraft, 'where' | 'structure' | 'campaign' | 'adset' | 'ad' | 'naming'>): SettingsPart {
  return {
    where: { accounts: s.where.accounts.map((a) => ({ ...a, pixel_id: a.pixel_id ?? null, budget: a.budget ?? null })) },
    structure: { ...s.structure },
    campaign: { ...s.campaign, bid_amount: s.campaign.bid_amount ?? null, roas_floor: s.campaign.roas_floor ?? null, end_local: s.campaign.end_local ?? null },
    adset: { ...s.adset, start_local: s.adset.start_local ?? null, start_time_zone: s.adset.start_time_zone ?? null, dsa_beneficiary: s.adset.dsa_beneficiary ?? null, dsa_payor: s.adset.dsa_payor ?? null },
    ad: { ...s.ad },
    naming: { ...s.naming },
  };
}

/** Steps 3–4 of the form as a template's settings. */
export function templateSettings(platform: Platform, v: WizardValues): PublishTemplateSettings {
  const d = toDraft(platform, v);
  return { where: d.where, structure: d.structure, campaign: d.campaign, adset: d.adset, ad: d.ad, naming: d.naming, launch: d.launch };
}

/** The form's values with a template's steps 3–4 in place of the current ones (steps 1–2 stay). */
export function applyTemplate(v: WizardValues, s: PublishTemplateSettings): WizardValues {
  const zone = marketZone(s.adset.countries);
  return {
    ...v,
    ...settingsValues(s),
    launch: s.launch.mode === 'at' ? { mode: 'at', local: instantToWall(s.launch.at, zone), zone } : { mode: s.launch.mode, local: null, zone: null },
  };
}

// ---------------------------------------------------------------------------------------------
// Names: the live example of step 4 (the server's lib/naming.ts builds the real ones the same way).

export const unknownTokens = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((t) => !(NAME_TOKENS as readonly string[]).includes(t));

/**
 * A name from a template and token values; characters the template uses as separators become
 * spaces inside values so the name parses back (as the server does).
 */
export function buildName(template: string, values: Partial<Record<(typeof NAME_TOKENS)[number], string | null | undefined>>, max = 400): string {
  const literal = template.replace(/\{\w+\}/g, '');
  const separators = new Set([...literal].filter((ch) => !/[\p{L}\p{N}\s]/u.test(ch)));
  const cleanValue = (s: string) =>
    [...s]
      .map((ch) => (separators.has(ch) ? ' ' : ch))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  return template
    .replace(/\{(\w+)\}/g, (whole, token: string) => {
      if (!(NAME_TOKENS as readonly string[]).includes(token)) return whole;
      const value = values[token as (typeof NAME_TOKENS)[number]];
      return value ? cleanValue(value) : '';
    })
    .trim()
    .slice(0, max);
}

/** A file name without its extension (the {material} token). */
export const stem = (fileName: string) => fileName.replace(/\.[^.]+$/, '');

/** Today as `YYYYMMDD` (the {date} token) in the browser's clock. */
export const compactDate = (d = new Date()) => `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
