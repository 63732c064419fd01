// Naming templates (PRODUCT.md "Domain facts"): names built from tokens parse back into those
// dimensions for reports and for finding an object's optimizer (docs/ad-data-design.md §3).

import { NAME_TOKENS, type NameToken } from '@ads/contracts';

export { NAME_TOKENS, type NameToken };
export type NameDims = Partial<Record<NameToken, string>>;

/** Used when the company has configured none (app_settings `naming_templates`). */
export const DEFAULT_NAMING_TEMPLATES = ['{drama}-{optimizer}-{date}-{seq}', '{drama}_{optimizer}_{date}_{seq}'];

const TOKEN_PATTERN: Partial<Record<NameToken, string>> = { date: '\\d{4,8}', seq: '\\d{1,6}', country: '[A-Za-z]{2}' };
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The dimensions of `name` under the first template it follows entirely; null when none fits. */
export function parseName(name: string, templates: readonly string[] = DEFAULT_NAMING_TEMPLATES): NameDims | null {
  for (const template of templates) {
    const tokens: NameToken[] = [];
    let pattern = '';
    let last = 0;
    for (const m of template.matchAll(/\{(\w+)\}/g)) {
      pattern += escape(template.slice(last, m.index));
      const token = m[1] as NameToken;
      if (!NAME_TOKENS.includes(token)) {
        pattern += '(.+?)';
        tokens.push(token);
      } else {
        pattern += `(${TOKEN_PATTERN[token] ?? '.+?'})`;
        tokens.push(token);
      }
      last = m.index + m[0].length;
    }
    pattern += escape(template.slice(last));
    const hit = new RegExp(`^${pattern}$`).exec(name.trim());
    if (!hit) continue;
    const dims: NameDims = {};
    tokens.forEach((t, i) => {
      if (NAME_TOKENS.includes(t)) dims[t] = hit[i + 1]!;
    });
    return dims;
  }
  return null;
}

/** Tokens of a template that are not ours (`{foo}`): a template with any is refused. */
export function unknownTokens(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((t) => !(NAME_TOKENS as readonly string[]).includes(t));
}

/**
 * A name from a template: each token replaced by its value. Characters of the template's own
 * separators are replaced by spaces inside values, so the name parses back into the same
 * dimensions (a drama called "A-B" would otherwise split at its hyphen).
 */
export function buildName(template: string, values: NameDims, max = 400): string {
  const literal = template.replace(/\{\w+\}/g, '');
  const separators = new Set([...literal].filter((c) => !/[\p{L}\p{N}\s]/u.test(c)));
  const clean = (v: string) =>
    [...v]
      .map((c) => (separators.has(c) ? ' ' : c))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  const name = template.replace(/\{(\w+)\}/g, (whole, token: string) => {
    if (!(NAME_TOKENS as readonly string[]).includes(token)) return whole;
    const v = values[token as NameToken];
    return v === undefined || v === null ? '' : clean(String(v));
  });
  return name.trim().slice(0, max);
}
