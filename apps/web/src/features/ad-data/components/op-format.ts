import type { AdReportRow } from '@ads/contracts';
import type { TFunction } from 'i18next';
import { currencyDecimals, formatMoney } from '@/lib/format';

/** Minor units of `currency` → major units (÷100, or ÷1 for JPY and the other zero-decimal currencies). */
export const toMajor = (minor: number, currency: string) => minor / 10 ** currencyDecimals(currency);

/** A budget or bid in minor units as money text ("USD 20.00", "JPY 3,000"); "-" for none. */
export function minorMoney(minor: number | null | undefined, currency: string | null | undefined): string {
  if (minor === null || minor === undefined || !currency) return '-';
  return formatMoney(toMajor(minor, currency), currency);
}

/** The budget a row holds, as text: its daily or lifetime amount; who holds it when the row does not. */
export function budgetText(row: AdReportRow, t: TFunction<'adData'>): string {
  if (row.daily_budget_minor !== null) return `${minorMoney(row.daily_budget_minor, row.currency)} ${t('budget.perDay')}`;
  if (row.lifetime_budget_minor !== null) return `${minorMoney(row.lifetime_budget_minor, row.currency)} ${t('budget.lifetime')}`;
  return '-';
}

/**
 * Who holds the budget of a row, as the server's ops see it: a campaign with campaign budget
 * holds it itself; its ad sets then hold none (and the other way round). Ads never hold one.
 */
export function budgetHolder(level: string, row: AdReportRow): 'self' | 'campaign' | 'adset' | 'none' {
  if (level === 'campaign') return row.budget_level === 'campaign' ? 'self' : 'adset';
  if (level === 'adset') return row.budget_level === 'campaign' ? 'campaign' : 'self';
  return 'none';
}

const STATUS_KEYS = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'] as const;

const CHANGE_ORDER = ['ad_account', 'name', 'status', 'daily_budget_minor', 'lifetime_budget_minor', 'bid_amount_minor', 'pixel_id', 'custom_event_type', 'copied_id', 'objects', 'reused'];

/** One before → after change in words ("Daily budget: USD 20.00 → USD 30.00"); a copy into another account converts money, so each side has its currency. */
export function describeChange(before: Record<string, unknown>, after: Record<string, unknown>, t: TFunction<'adData'>): string[] {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const afterCurrency = str(after.currency) ?? str(before.currency);
  const beforeCurrency = str(before.currency) ?? afterCurrency;
  const status = (v: unknown) => (typeof v === 'string' && (STATUS_KEYS as readonly string[]).includes(v) ? t(`status.${v as (typeof STATUS_KEYS)[number]}`) : String(v ?? '-'));
  const money = (v: unknown, currency: string | null) => (typeof v === 'number' ? minorMoney(v, currency) : '-');
  const out: string[] = [];
  // A fixed order: the log's rows come back from jsonb with their keys reordered.
  const keys = [...CHANGE_ORDER.filter((k) => k in after), ...Object.keys(after).filter((k) => !CHANGE_ORDER.includes(k))];
  for (const key of keys) {
    if (key === 'currency') continue;
    const b = before[key];
    const a = after[key];
    // A copy has no status before: its after is the copies' status.
    if (key === 'status') out.push(b === undefined ? `${t('copy.status')}: ${status(a)}` : `${t('fields.status')}: ${status(b)} → ${status(a)}`);
    else if (key === 'name') out.push(b === a ? `${t('fields.name')}: ${String(a)}` : `${t('fields.name')}: ${String(b ?? '-')} → ${String(a)}`);
    else if (key === 'ad_account') out.push(`${t('fields.adAccount')}: ${String(b ?? '-')} → ${String(a)}`);
    else if (key === 'daily_budget_minor') out.push(`${t('fields.dailyBudget')}: ${money(b, beforeCurrency)} → ${money(a, afterCurrency)}`);
    else if (key === 'lifetime_budget_minor') out.push(`${t('fields.lifetimeBudget')}: ${money(b, beforeCurrency)} → ${money(a, afterCurrency)}`);
    else if (key === 'bid_amount_minor') out.push(`${t('fields.bid')}: ${money(b, beforeCurrency)} → ${money(a, afterCurrency)}`);
    else if (key === 'pixel_id') out.push(b === undefined ? `${t('copy.pixel')}: ${String(a)}` : `${t('copy.pixel')}: ${String(b ?? '-')} → ${String(a)}`);
    else if (key === 'custom_event_type') out.push(b === undefined ? `${t('copy.event')}: ${String(a)}` : `${t('copy.event')}: ${String(b ?? '-')} → ${String(a)}`);
    else if (key === 'copied_id') out.push(`${t('copy.copiedId')}: ${String(a)}`);
    else if (key === 'objects') out.push(t('copy.objects', { count: Number(a) }));
    else if (key === 'reused' && a === true) out.push(t('copy.reused'));
  }
  return out;
}
