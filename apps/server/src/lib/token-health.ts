import { formatMessage, TOKEN_EXPIRY_WARNING_DAYS, type ErrorKey, type Lang, type TokenStatus } from '@ads/contracts';
import { sql, type RawBuilder } from 'kysely';

/**
 * Token health (PRODUCT.md "Domain facts": tokens last ~60 days; warn a week before; mark dead
 * ones). One rule, used by connect, check_token, the check-tokens job and every read.
 */

const WARNING_MS = TOKEN_EXPIRY_WARNING_DAYS * 24 * 3600 * 1000;

export interface TokenHealth {
  status: TokenStatus;
  /** Why, as a message key and parameters (formatted in the reader's language). */
  reasonKey: ErrorKey | null;
  reasonParams: Record<string, string> | null;
}

export interface TokenFacts {
  /** What the platform said; false = expired, revoked or otherwise refused. */
  valid: boolean;
  expiresAt: Date | null;
  dataAccessExpiresAt: Date | null;
  /** The platform's explanation of an invalid token, when it gave one. */
  detail?: string | null;
}

const at = (d: Date) => d.toISOString();

/** Health of a token given what the platform says about it and the time now. */
export function tokenHealth(t: TokenFacts, now: Date): TokenHealth {
  const soon = now.getTime() + WARNING_MS;
  const invalid = (reasonKey: ErrorKey, reasonParams: Record<string, string> | null): TokenHealth => ({ status: 'invalid', reasonKey, reasonParams });
  if (t.expiresAt && t.expiresAt.getTime() <= now.getTime()) return invalid('TOKEN_EXPIRED', { at: at(t.expiresAt) });
  if (t.dataAccessExpiresAt && t.dataAccessExpiresAt.getTime() <= now.getTime()) return invalid('DATA_ACCESS_EXPIRED', { at: at(t.dataAccessExpiresAt) });
  if (!t.valid) return t.detail ? invalid('TOKEN_INVALID_DETAIL', { detail: t.detail }) : invalid('TOKEN_INVALID', null);
  if (t.expiresAt && t.expiresAt.getTime() <= soon) return { status: 'expiring', reasonKey: 'TOKEN_EXPIRING', reasonParams: { at: at(t.expiresAt) } };
  if (t.dataAccessExpiresAt && t.dataAccessExpiresAt.getTime() <= soon) return { status: 'expiring', reasonKey: 'DATA_ACCESS_EXPIRING', reasonParams: { at: at(t.dataAccessExpiresAt) } };
  return { status: 'valid', reasonKey: null, reasonParams: null };
}

const RANK: Record<TokenStatus, number> = { valid: 0, expiring: 1, invalid: 2 };

/**
 * The health shown now: the stored verdict (from the last check or a failed call), worsened by
 * the clock, so a token is flagged as expiring or expired on time even between checks.
 */
export function currentHealth(
  stored: { status: TokenStatus; status_reason_key: string | null; status_reason_params: unknown; token_expires_at: Date | null; data_access_expires_at: Date | null },
  now: Date,
): TokenHealth {
  const byClock = tokenHealth({ valid: true, expiresAt: stored.token_expires_at, dataAccessExpiresAt: stored.data_access_expires_at }, now);
  if (RANK[byClock.status] > RANK[stored.status]) return byClock;
  return { status: stored.status, reasonKey: (stored.status_reason_key as ErrorKey | null) ?? null, reasonParams: (stored.status_reason_params as Record<string, string> | null) ?? null };
}

/** The same rule in SQL, for filtering lists by status. */
export function currentStatusSql(now: Date): RawBuilder<TokenStatus> {
  const soon = new Date(now.getTime() + WARNING_MS);
  return sql<TokenStatus>`case
    when pa.status = 'invalid' or pa.token_expires_at <= ${now} or pa.data_access_expires_at <= ${now} then 'invalid'
    when pa.status = 'expiring' or pa.token_expires_at <= ${soon} or pa.data_access_expires_at <= ${soon} then 'expiring'
    else 'valid' end`;
}

/** Instants in reasons read "2026-12-24 08:00 UTC": people compare them with calendars, not parse them. */
const readable = (iso: string) => (/^\d{4}-\d{2}-\d{2}T/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso);

/** A stored reason in the reader's language. */
export function reasonText(h: Pick<TokenHealth, 'reasonKey' | 'reasonParams'>, lang: Lang): string | null {
  if (!h.reasonKey) return null;
  const params = Object.fromEntries(Object.entries(h.reasonParams ?? {}).map(([k, v]) => [k, k === 'at' ? readable(String(v)) : v]));
  return formatMessage(h.reasonKey, lang, params);
}
