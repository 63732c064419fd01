import { LINK_PLACEHOLDERS } from '@ads/contracts';

export type LinkPlaceholder = (typeof LINK_PLACEHOLDERS)[number];

/** What each placeholder becomes in the preview: plausible values of the kind the platform fills in. */
export const SAMPLE_VALUES: Record<LinkPlaceholder, string> = {
  '{drama_id}': '10086',
  '{product_id}': 'SKU-2088',
  '{episode}': '1',
  '{campaign_id}': '120211000000000001',
  '{adset_id}': '120211000000000002',
  '{ad_id}': '120211000000000003',
  '{campaign_name}': 'drama-0301-alice-01',
  '{adset_name}': 'US-18-65-0301',
  '{ad_name}': 'video-0301-03',
  '{placement}': 'Facebook_Mobile_Feed',
};

const KNOWN: ReadonlySet<string> = new Set(LINK_PLACEHOLDERS);

/** Anything in single braces; `{{campaign.id}}` (Meta's own macros) shows up as `{campaign.id}` and is flagged. */
const PLACEHOLDER = /\{[^{}]*\}/g;

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'known'; text: LinkPlaceholder; value: string } | { kind: 'unknown'; text: string };

export interface TemplateAnalysis {
  parts: TemplatePart[];
  /** The link with every known placeholder replaced by its sample value. */
  expanded: string;
  /** Placeholders not in LINK_PLACEHOLDERS, each once, in order of appearance. */
  unknown: string[];
  /** Known placeholders used, each once. */
  used: LinkPlaceholder[];
}

/** Splits a link template into text and placeholders and expands it with the sample values. */
export function analyzeTemplate(template: string): TemplateAnalysis {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    const at = m.index ?? 0;
    if (at > last) parts.push({ kind: 'text', text: template.slice(last, at) });
    const token = m[0];
    if (KNOWN.has(token)) parts.push({ kind: 'known', text: token as LinkPlaceholder, value: SAMPLE_VALUES[token as LinkPlaceholder] });
    else parts.push({ kind: 'unknown', text: token });
    last = at + token.length;
  }
  if (last < template.length) parts.push({ kind: 'text', text: template.slice(last) });
  const unknown = [...new Set(parts.filter((p) => p.kind === 'unknown').map((p) => p.text))];
  const used = [...new Set(parts.flatMap((p) => (p.kind === 'known' ? [p.text] : [])))];
  const expanded = parts.map((p) => (p.kind === 'known' ? p.value : p.text)).join('');
  return { parts, expanded, unknown, used };
}

/** The host of a link ('' when it is not a URL yet). */
export function linkHost(link: string): string {
  try {
    return new URL(link).hostname.toLowerCase();
  } catch {
    return '';
  }
}

