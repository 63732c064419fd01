import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../lib/actor.ts';
import { insertAuditLog } from './audit.repository.ts';

export interface AuditEntry {
  action: string;
  entity_type: string;
  entity_id?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** Who made a change: a request's context, or a background job's (no actor, no address). */
export type AuditContext = { ip: RequestContext['ip'] | null; requestId: RequestContext['requestId'] | null; actor: { id: number; account: string } | null };

/** Appends one entry to the audit log; call it inside the transaction that makes the change. */
export async function writeAudit(db: Db, ctx: AuditContext, entry: AuditEntry) {
  await insertAuditLog(db, {
    actor_id: ctx.actor?.id ?? null,
    actor_account: ctx.actor?.account ?? null,
    action: entry.action,
    entity_type: entry.entity_type,
    entity_id: entry.entity_id == null ? null : String(entry.entity_id),
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
    ip: ctx.ip,
    request_id: ctx.requestId,
  });
}
