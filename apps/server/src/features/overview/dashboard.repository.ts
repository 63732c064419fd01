import type { Lang } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The job that syncs one ad account (features/ad-data/ad-data.jobs.ts AD_ACCOUNT_SYNC_JOB). */
const AD_ACCOUNT_SYNC_JOB = 'sync-ad-account';

export interface FailedSync {
  ad_account_id: number;
  name: string;
  message: string | null;
  finished_at: Date;
}

/**
 * Ad accounts whose latest sync run (in the last `sinceHours`) failed, newest failure first, in a
 * set of ad accounts (null = all). A later successful run clears the alert.
 */
export async function failedAdAccountSyncs(db: Db, adAccountIds: number[] | null, since: Date, lang: Lang, limit: number): Promise<{ rows: FailedSync[]; total: number }> {
  if (adAccountIds !== null && !adAccountIds.length) return { rows: [], total: 0 };
  const scope = adAccountIds === null ? sql`true` : sql`l.acc in (${sql.join(adAccountIds)})`;
  const text = lang === 'en' ? sql`coalesce(l.error_en, l.error, l.message_en, l.message)` : sql`coalesce(l.error, l.message)`;
  const base = sql`
    with runs as (
      select (r.data->>'ad_account_id')::int as acc, r.status, r.message, r.message_en, r.error, r.error_en, r.finished_at
      from job_runs r
      where r.job_name = ${AD_ACCOUNT_SYNC_JOB} and r.finished_at >= ${since} and r.status in ('success', 'failed', 'skipped') and r.data->>'ad_account_id' is not null
    ),
    latest as (select distinct on (acc) * from runs order by acc, finished_at desc),
    failed as (select l.acc, a.name, ${text} as message, l.finished_at from latest l join ad_accounts a on a.id = l.acc where l.status = 'failed' and ${scope})`;
  const [rows, count] = await Promise.all([
    sql<{ acc: number; name: string; message: string | null; finished_at: Date }>`${base} select * from failed order by finished_at desc, acc limit ${limit}`.execute(db),
    sql<{ n: number }>`${base} select count(*)::int as n from failed`.execute(db),
  ]);
  return {
    rows: rows.rows.map((r) => ({ ad_account_id: Number(r.acc), name: r.name, message: r.message, finished_at: new Date(r.finished_at) })),
    total: Number(count.rows[0]?.n ?? 0),
  };
}

/** The company's live sites (the order webhook's health is read per site). */
export async function liveSites(db: Db): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('sites').select(['id', 'name']).where('deleted_at', 'is', null).orderBy('id').execute();
}
