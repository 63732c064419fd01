import { EU_COUNTRIES, MARKET_TIME_ZONES } from '@ads/contracts';

/** Countries offered for targeting: the markets we know a zone of, the EU, and other common ones. */
export const COUNTRY_CODES: readonly string[] = [
  ...new Set([
    ...Object.keys(MARKET_TIME_ZONES),
    ...EU_COUNTRIES,
    'CH', 'NO', 'IS', 'IL', 'EG', 'MA', 'NG', 'KE', 'QA', 'KW', 'BH', 'OM', 'JO', 'PK', 'BD', 'LK', 'NP', 'KH', 'MM', 'LA', 'MO', 'MN', 'KZ', 'UA',
    'GT', 'EC', 'UY', 'PY', 'BO', 'VE', 'DO', 'PR', 'CR', 'PA', 'JM',
  ]),
].sort();

/** A country's name in the interface language ("United States" / "美国"); the code when unknown. */
export function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language === 'en' ? 'en' : 'zh-CN'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function countryOptions(language: string) {
  return COUNTRY_CODES.map((code) => ({ value: code, label: `${countryName(code, language)} (${code})` }));
}

/** IANA zones for the start-time pickers: the runtime's list, else the market zones. */
export function timeZoneOptions(extra: readonly string[] = []) {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [...new Set(Object.values(MARKET_TIME_ZONES))];
  return [...new Set([...extra.filter(Boolean), 'UTC', ...zones])].map((z) => ({ value: z, label: z }));
}
