// A site's link template (sites.link_template, e.g.
// `https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}`)
// read backwards: which drama / product / episode a landing link points to. The ad's url_tags are
// query parameters appended to the link, so both are read together.

export type LinkValues = Partial<Record<'drama_id' | 'product_id' | 'episode' | 'campaign_id' | 'adset_id' | 'ad_id', string>>;

const PLACEHOLDER = /\{(\w+)\}/g;

function safeUrl(text: string): URL | null {
  try {
    return new URL(text.replace(PLACEHOLDER, (_m, name: string) => `__${name}__`));
  } catch {
    return null;
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The placeholders' values in `link` (+ `urlTags`) when it follows `template` (same host and path shape); null otherwise. */
export function parseLink(template: string, link: string, urlTags?: string | null): LinkValues | null {
  const t = safeUrl(template);
  let u: URL;
  try {
    u = new URL(link);
  } catch {
    return null;
  }
  if (!t || t.hostname.toLowerCase() !== u.hostname.toLowerCase()) return null;
  for (const [k, v] of new URLSearchParams(urlTags ?? '')) if (!u.searchParams.has(k)) u.searchParams.set(k, v);
  const out: LinkValues = {};
  const names: string[] = [];
  const pathPattern = escape(t.pathname).replace(/__(\w+)__/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pathPattern}/?$`).exec(u.pathname);
  if (!match) return null;
  names.forEach((name, i) => {
    (out as Record<string, string>)[name] = decodeURIComponent(match[i + 1]!);
  });
  for (const [param, value] of t.searchParams) {
    const m = /^__(\w+)__$/.exec(value);
    const got = u.searchParams.get(param);
    if (m && got) (out as Record<string, string>)[m[1]!] = got;
  }
  return out;
}
