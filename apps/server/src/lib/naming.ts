// Naming templates (PRODUCT.md "Domain facts"): names built from tokens parse back into those
// dimensions for reports and for finding an object's optimizer (docs/ad-data-design.md §3).

export const NAME_TOKENS = ['drama', 'product', 'scheme', 'optimizer', 'editor', 'material', 'country', 'account', 'date', 'seq'] as const;
export type NameToken = (typeof NAME_TOKENS)[number];
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
