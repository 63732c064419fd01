import { formatMetric } from '@ads/contracts';
import i18n from '@/lib/i18n';

type Lang = 'zh' | 'en';

// The order screens format through the metric registry, so a dollar or a count looks the same as
// in every report and export: USD as the registry's revenue, counts as its payers, ROI as its roi.

/** USD with 2 decimals ("$1,234.50"); "-" for none. */
export const usdText = (v: number | null | undefined, lang: Lang) => formatMetric('revenue', v ?? null, lang);
/** A count with grouping. */
export const countText = (v: number | null | undefined, lang: Lang) => formatMetric('payers', v ?? null, lang);
/** A ratio as a percentage ("123.45%"), as the registry's ROI. */
export const roiText = (v: number | null | undefined, lang: Lang) => formatMetric('roi', v ?? null, lang);

const regionNames = new Map<string, Intl.DisplayNames>();

/** A country's name in the interface language ("United States", "美国"), with its code. */
export function countryName(code: string | null | undefined): string {
  if (!code) return '';
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  let names = regionNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([lang], { type: 'region' });
    regionNames.set(lang, names);
  }
  try {
    const name = names.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}
