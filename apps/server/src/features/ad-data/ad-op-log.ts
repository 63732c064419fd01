import { both, type AdBudgetChangeState, type Bilingual } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AdLevel, AdOperationAction } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { platformDetail, toAppError } from '../../lib/platform-errors.ts';
import type { ScopeActor } from '../../lib/scope.ts';
import { PlatformError } from '../../platform/types.ts';

// The operation log's writes (docs/ad-data-design.md §7): a row per object per act, written
// `pending` before the platform call and completed after it, with before → after and, on failure,
// the platform's reason in both languages. Shared by the operations and the copies that re-create.

/** Who acts: a person (with scope), a rule, a start task or the system. */
export type OpActor =
  | { type: 'user'; actor: ScopeActor }
  | { type: 'rule'; ruleId: number }
  | { type: 'start_task'; startTaskId: number; userId?: number | null }
  | { type: 'system' };

/** One object's outcome, as an operation answers it. */
export interface OpResult {
  /** Set when one act touches several levels (a copy that re-creates a tree). */
  level?: AdLevel;
  id: number;
  platform_id: string;
  name: string;
  ad_account_id: number;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  result: 'ok' | 'failed' | 'preview';
  error: Bilingual | null;
  warnings: Bilingual[];
  operation_id: number | null;
  /** Budget acts on ad sets: the hour's changes before this one. */
  budget_changes?: AdBudgetChangeState;
}

/** The object a log row is about. */
export interface OpObject {
  id: number | null;
  platform_id: string;
  name: string;
  ad_account_id: number;
}

/** A platform failure in plain words, both languages. */
export function failureText(err: unknown): Bilingual {
  if (err instanceof Error && err.name === 'AdSyncNoTokenError') return both('AD_OP_NO_TOKEN');
  const app = toAppError(err);
  if (app instanceof AppError) return both(app.key, app.params);
  if (err instanceof PlatformError) return { zh: platformDetail(err), en: platformDetail(err) };
  const text = err instanceof Error ? err.message : String(err);
  return { zh: text, en: text };
}

const actorColumns = (a: OpActor) => ({
  actor_type: a.type,
  actor_user_id: a.type === 'user' ? a.actor.id : a.type === 'start_task' ? (a.userId ?? null) : null,
  rule_id: a.type === 'rule' ? a.ruleId : null,
  start_task_id: a.type === 'start_task' ? a.startTaskId : null,
});

/** An operation-log row as `begin` writes it: pending until `finish`. */
const opRow = (actor: OpActor, batchId: string, action: AdOperationAction, level: AdLevel, t: OpObject, before: unknown, after: unknown, now: Date) => ({
  batch_id: batchId,
  ...actorColumns(actor),
  action,
  level,
  object_id: t.id,
  object_platform_id: t.platform_id,
  object_name: t.name,
  ad_account_id: t.ad_account_id,
  before: JSON.stringify(before),
  after: JSON.stringify(after),
  created_at: now,
});

export function createOpLog({ db, clock }: { db: Db; clock: Clock }) {
  async function begin(actor: OpActor, batchId: string, action: AdOperationAction, level: AdLevel, t: OpObject, before: unknown, after: unknown): Promise<number> {
    const row = await db.insertInto('ad_operations').values(opRow(actor, batchId, action, level, t, before, after, clock.now())).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async function finish(id: number, result: 'ok' | 'failed', error: Bilingual | null, after?: unknown) {
    await db
      .updateTable('ad_operations')
      .set({ result, error: error?.zh.slice(0, 1000) ?? null, error_en: error?.en.slice(0, 1000) ?? null, finished_at: clock.now(), ...(after !== undefined && { after: JSON.stringify(after) }) })
      .where('id', '=', id)
      .where('result', '=', 'pending')
      .execute();
  }

  /** `begin` for many objects in one statement; answers each object's row id by its platform id. */
  async function beginMany(actor: OpActor, batchId: string, action: AdOperationAction, level: AdLevel, rows: readonly { t: OpObject; before: unknown; after: unknown }[]): Promise<Map<string, number>> {
    if (!rows.length) return new Map();
    const now = clock.now();
    const inserted = await db
      .insertInto('ad_operations')
      .values(
        rows.map(({ t, before, after }) => opRow(actor, batchId, action, level, t, before, after, now)),
      )
      .returning(['id', 'object_platform_id'])
      .execute();
    return new Map(inserted.map((r) => [r.object_platform_id, r.id]));
  }

  /** `finish` for many rows in one statement (each still only once, from pending). */
  async function finishMany(rows: readonly { id: number; result: 'ok' | 'failed'; error: Bilingual | null }[]) {
    if (!rows.length) return;
    const values = sql.join(rows.map((r) => sql`(${r.id}::bigint, ${r.result}::text, ${r.error?.zh.slice(0, 1000) ?? null}::text, ${r.error?.en.slice(0, 1000) ?? null}::text)`));
    await sql`update ad_operations o set result = v.result, error = v.error, error_en = v.error_en, finished_at = ${clock.now()}
      from (values ${values}) as v(id, result, error, error_en) where o.id = v.id and o.result = 'pending'`.execute(db);
  }

  /** Writes one failed row at once (refused before any platform call). */
  async function refused(actor: OpActor, batchId: string, action: AdOperationAction, level: AdLevel, t: OpObject, before: unknown, after: unknown, error: Bilingual) {
    const id = await begin(actor, batchId, action, level, t, before, after);
    await finish(id, 'failed', error);
    return id;
  }

  /** The rows an earlier attempt of the same batch wrote (a job retried after a crash goes on from them). */
  async function ofBatch(batchId: string, action: AdOperationAction) {
    const rows = await db.selectFrom('ad_operations').select(['id', 'level', 'object_platform_id', 'ad_account_id', 'after', 'result', 'error', 'error_en']).where('batch_id', '=', batchId).where('action', '=', action).orderBy('id').execute();
    return rows.map((r) => ({ ...r, after: (typeof r.after === 'string' ? JSON.parse(r.after) : (r.after ?? {})) as Record<string, unknown> }));
  }

  return { begin, beginMany, finish, finishMany, refused, ofBatch };
}
