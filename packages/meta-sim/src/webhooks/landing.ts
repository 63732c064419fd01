import type { Sim } from '../graph/context.ts';
import { creativeLink } from '../routes/creatives.ts';
import type { AdRecord, SiteRecord } from '../store/state.ts';
import { templateUrl } from './sites.ts';

// Landing links: what a click on an ad opens (the creative link plus its url_tags, macros
// expanded, as reference §6 describes), which site it lands on, and what a site reads from it.

/** Expands the url_tags macros of reference §6 for an ad. */
function expandMacros(text: string, sim: Sim, ad: AdRecord): string {
  const s = sim.store.state;
  const values: Record<string, string> = {
    'campaign.id': ad.campaign_id,
    'campaign.name': s.campaigns[ad.campaign_id]?.name ?? '',
    'adset.id': ad.adset_id,
    'adset.name': s.adsets[ad.adset_id]?.name ?? '',
    'ad.id': ad.id,
    'ad.name': ad.name,
    placement: 'Facebook_Mobile_Feed',
    site_source_name: 'fb',
  };
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, key: string) => (key in values ? encodeURIComponent(values[key]!) : whole));
}

/** The landing URL a click on the ad opens: the creative link plus its url_tags, macros expanded. */
export function landingUrl(sim: Sim, ad: AdRecord): string | undefined {
  const creative = sim.store.state.creatives[ad.creative_id];
  const link = creative ? creativeLink(sim.store, creative) : undefined;
  if (!link) return undefined;
  const tags = creative?.url_tags ? expandMacros(creative.url_tags, sim, ad) : '';
  const expanded = expandMacros(link, sim, ad);
  return tags ? `${expanded}${expanded.includes('?') ? '&' : '?'}${tags}` : expanded;
}

/** Whether a landing URL is on the site's domain (any URL when the site has no domain). */
export function siteMatches(site: SiteRecord, url: string | undefined): boolean {
  if (!site.domain) return true;
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === site.domain || host.endsWith(`.${site.domain}`);
  } catch {
    return false;
  }
}

/** What a site reads from a landing URL: placeholders of its link template, or common keys. */
export interface LandingFields {
  drama_id?: string;
  episode?: number;
  product_id?: string;
  campaign_id?: string;
  adset_id?: string;
  ad_id?: string;
}

const ESCAPE_RE = /[.*+?^${}()|[\]\\]/g;
const QUERY_KEYS = ['drama_id', 'episode', 'product_id', 'campaign_id', 'adset_id', 'ad_id'] as const;

/**
 * Reads a landing URL the way the site does: with its link template (`/play/{drama_id}` in the
 * path, `c={campaign_id}` in the query), else by the plain query keys. Ids that are not digit
 * strings (an unexpanded macro) are left out.
 */
export function parseLanding(site: SiteRecord, url: string): LandingFields {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {};
  }
  const raw: Record<string, string> = {};
  if (site.link_template) {
    const template = templateUrl(site.link_template);
    const names: string[] = [];
    const pattern = template.pathname.replace(ESCAPE_RE, '\\$&').replace(/__(\w+)__/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const m = new RegExp(`^${pattern}$`).exec(parsed.pathname);
    names.forEach((name, i) => {
      if (m?.[i + 1] !== undefined) raw[name] = decodeURIComponent(m[i + 1]!);
    });
    for (const [key, value] of template.searchParams) {
      const token = /^__(\w+)__$/.exec(value);
      const got = parsed.searchParams.get(key);
      if (token && got !== null) raw[token[1]!] = got;
    }
  } else {
    for (const key of QUERY_KEYS) {
      const got = parsed.searchParams.get(key);
      if (got !== null) raw[key] = got;
    }
  }
  const out: LandingFields = {};
  if (raw.drama_id) out.drama_id = raw.drama_id.slice(0, 64);
  if (raw.product_id) out.product_id = raw.product_id.slice(0, 64);
  if (raw.episode && /^\d{1,5}$/.test(raw.episode) && Number(raw.episode) > 0) out.episode = Number(raw.episode);
  for (const key of ['campaign_id', 'adset_id', 'ad_id'] as const) if (raw[key] && /^\d{1,30}$/.test(raw[key])) out[key] = raw[key];
  return out;
}
