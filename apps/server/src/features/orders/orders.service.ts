import { CODE_ERROR, CODE_OK, CODE_UNAUTHORIZED, formatMessage, type FieldError, type ImportOrdersBody, type ImportOrdersResult, type Lang } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { DeliveryResult } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { decodeBase64File, openImportFile } from '../../lib/import-file.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { drainAllCohorts } from './cohorts.ts';
import { ingestEvents, IngestRetry, type IngestItem, type IngestSite } from './ingest.ts';
import { EVENT_FIELDS, parseOrderEvent } from './order-event.ts';
import { verifySignature } from './signature.ts';
import { siteOrderHealth } from './site-health.ts';

export interface OrderServiceDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  reportTimezone: string;
  log?: { warn(obj: object, msg?: string): void };
  /**
   * The cohort facts of an intake are recomputed this long after it (one drain for every intake
   * meanwhile), so reports are fresh within seconds; 0 = only by the refresh-order-cohorts job.
   */
  cohortDrainDelayMs?: number;
}

/** Other features' readers of cohort facts drain the log of their range first (cohorts.ts). */
export { drainAllCohorts, drainCohortRange } from './cohorts.ts';

/** Largest webhook body (API.md): 1 MiB. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
/** Events in one batch (API.md). */
export const MAX_BATCH = 500;
/** The previous secret keeps working this long after a rotation (API.md). */
export const SECRET_GRACE_MS = 24 * 3600_000;
/** Delivery log rows are kept this long (the sites screen shows the last few and the last 24 hours). */
const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
/** Field errors listed in one answer; the rest are counted in the message. */
const MAX_LISTED_ERRORS = 50;
/** Import: events ingested per statement group, and the rows and bytes a file may hold. */
const IMPORT_CHUNK = 500;
const MAX_IMPORT_ROWS = 100_000;
const MAX_IMPORT_UNPACKED_BYTES = 64 * 1024 * 1024;
const MAX_IMPORT_ERRORS = 200;

/** A webhook answer: the HTTP status of API.md and the envelope. */
export interface WebhookAnswer {
  status: number;
  body: { code: number; message: string; data: unknown };
}

/** Thrown inside the transaction to undo a refused request (or a dry run). */
class Rollback extends Error {
  constructor(readonly answer: unknown) {
    super('rollback');
  }
}

const siteIdOf = (text: string) => (/^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647 && Number(text) > 0 ? Number(text) : null);

/** Attempts of one delivery when a refund's order turned out to belong to a buyer not locked (ingest.ts IngestRetry). */
const MAX_ATTEMPTS = 3;

export function createOrderService({ db, clock, secrets, reportTimezone, log, cohortDrainDelayMs = 2000 }: OrderServiceDeps) {
  let lastPrune = 0;

  // Debounced drain of the cohort log after intakes: one timer at a time, never two drains at once.
  let drainTimer: NodeJS.Timeout | null = null;
  let draining: Promise<unknown> | null = null;
  let closed = false;
  function cohortsChanged() {
    if (!cohortDrainDelayMs || closed || drainTimer) return;
    drainTimer = setTimeout(() => {
      drainTimer = null;
      if (draining) return void draining.finally(cohortsChanged);
      draining = drainAllCohorts(db, { maxRounds: 100 })
        .catch((err: unknown) => log?.warn({ err }, 'order cohorts: drain failed (the refresh-order-cohorts job retries)'))
        .finally(() => {
          draining = null;
        });
    }, cohortDrainDelayMs);
    drainTimer.unref();
  }

  async function loadSite(idText: string) {
    const id = siteIdOf(idText);
    if (id === null) return undefined;
    return db
      .selectFrom('sites')
      .select(['id', 'link_template', 'webhook_secret_enc', 'webhook_secret_prev_enc', 'webhook_secret_rotated_at'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The secrets a signature may use now: the current one, and the previous one within its grace period. */
  async function validSecrets(site: NonNullable<Awaited<ReturnType<typeof loadSite>>>, now: Date): Promise<string[]> {
    const out = [await secrets.decrypt(site.webhook_secret_enc)];
    if (site.webhook_secret_prev_enc && site.webhook_secret_rotated_at && now.getTime() - site.webhook_secret_rotated_at.getTime() < SECRET_GRACE_MS) {
      out.push(await secrets.decrypt(site.webhook_secret_prev_enc));
    }
    return out;
  }

  async function logDelivery(trx: Db, row: { site_id: number; events: number | null; accepted?: number; duplicates?: number; http_status: number; result: DeliveryResult; message?: string; bytes: number }) {
    const now = clock.now();
    const inserted = await trx
      .insertInto('order_deliveries')
      .values({ ...row, message: (row.message ?? '').slice(0, 500), received_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** The log of a site spammed with refused requests stays bounded in time (run outside transactions, hourly at most). */
  async function pruneDeliveries() {
    const now = clock.now();
    if (now.getTime() - lastPrune < 3600_000) return;
    lastPrune = now.getTime();
    await db
      .deleteFrom('order_deliveries')
      .where('received_at', '<', new Date(now.getTime() - DELIVERY_RETENTION_MS))
      .execute()
      .catch((err: unknown) => log?.warn({ err }, 'order delivery log: pruning failed'));
  }

  const answer = (status: number, code: number, message: string, data: unknown = null): WebhookAnswer => ({ status, body: { code, message, data } });

  /** Field errors → the 400 answer (the first few named in the message, all listed up to a cap). */
  function invalid(lang: Lang, errors: FieldError[]): WebhookAnswer {
    const detail = errors
      .slice(0, 3)
      .map((e) => `${e.field} ${e.message}`)
      .join('; ');
    return answer(400, CODE_ERROR, formatMessage('ORDER_BODY_INVALID', lang, { detail: errors.length > 3 ? `${detail}; … (${errors.length})` : detail }), {
      errors: errors.slice(0, MAX_LISTED_ERRORS),
    });
  }

  return {
    /** The order webhook's health and last deliveries of each site (the sites screen). */
    siteHealth: (siteIds: number[], now: Date) => siteOrderHealth(db, siteIds, now),

    /**
     * One webhook request (API.md "Orders"): 404 unknown site, 401 signature, 400 malformed,
     * 409 conflict, 200 stored. Refused requests store nothing but their line in the delivery log.
     */
    async receive(siteIdText: string, body: Buffer | undefined, signature: string | string[] | undefined, lang: Lang): Promise<WebhookAnswer> {
      const site = await loadSite(siteIdText);
      if (!site) return answer(404, CODE_ERROR, formatMessage('SITE_NOT_FOUND', lang));
      await pruneDeliveries();
      const bytes = body ?? Buffer.alloc(0);
      const now = clock.now();
      const refuse = async (a: WebhookAnswer, result: DeliveryResult, events: number | null) => {
        await logDelivery(db, { site_id: site.id, events, http_status: a.status, result, message: a.body.message, bytes: bytes.length });
        return a;
      };

      const check = verifySignature(signature, bytes, await validSecrets(site, now), now.getTime());
      if (check === 'missing') return refuse(answer(401, CODE_UNAUTHORIZED, formatMessage('ORDER_SIGNATURE_MISSING', lang)), 'bad_signature', null);
      if (check === 'invalid') return refuse(answer(401, CODE_UNAUTHORIZED, formatMessage('ORDER_SIGNATURE_INVALID', lang)), 'bad_signature', null);
      if (check === 'stale') return refuse(answer(401, CODE_UNAUTHORIZED, formatMessage('ORDER_SIGNATURE_STALE', lang, { seconds: 300 })), 'stale_timestamp', null);

      let parsed: unknown;
      try {
        parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      } catch {
        return refuse(answer(400, CODE_ERROR, formatMessage('BAD_JSON', lang), { errors: [{ field: 'body', message: formatMessage('BAD_JSON', lang) }] }), 'invalid', null);
      }
      const shapeError = (field: string) => invalid(lang, [{ field, message: formatMessage('ORDER_BODY_SHAPE', lang, { max: MAX_BATCH }) }]);
      let rawEvents: unknown[];
      let batch = false;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'events' in parsed) {
        const list = (parsed as { events: unknown }).events;
        if (!Array.isArray(list) || list.length < 1 || list.length > MAX_BATCH) return refuse(shapeError('events'), 'invalid', null);
        rawEvents = list;
        batch = true;
      } else if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        rawEvents = [parsed];
      } else return refuse(shapeError('body'), 'invalid', null);

      const items: IngestItem[] = [];
      const errors: FieldError[] = [];
      rawEvents.forEach((raw, i) => {
        const prefix = batch ? `events.${i}.` : '';
        const r = parseOrderEvent(raw, { lang, prefix });
        if (r.event) items.push({ event: r.event, raw: r.raw, field: batch ? `events.${i}` : 'body' });
        else errors.push(...r.errors);
      });
      if (errors.length) return refuse(invalid(lang, errors), 'invalid', rawEvents.length);

      const ingestSite: IngestSite = { id: site.id, link_template: site.link_template };
      const deliver = () =>
        db.transaction().execute(async (trx) => {
          // The delivery's log row is stored by the intake with its counts (or by refuse() after a conflict).
          const delivery = { site_id: site.id, events: items.length, http_status: 200, result: 'ok' as const, bytes: bytes.length };
          const r = await ingestEvents(trx, { site: ingestSite, reportTimezone, now, source: 'webhook', lang, delivery }, items);
          if (r.conflicts.length) {
            const list = r.conflicts.slice(0, MAX_LISTED_ERRORS).map(({ field, message }) => ({ field, message }));
            const detail = list
              .slice(0, 3)
              .map((c) => c.message)
              .join('; ');
            throw new Rollback(answer(409, CODE_ERROR, formatMessage('ORDER_CONFLICT', lang, { detail }), { errors: list }));
          }
          return { a: answer(200, CODE_OK, 'ok', { accepted: r.accepted, duplicates: r.duplicates }), dirty: r.dirtyPairs > 0 };
        });
      for (let attempt = 1; ; attempt++) {
        try {
          const { a, dirty } = await deliver();
          if (dirty) cohortsChanged();
          return a;
        } catch (err) {
          if (err instanceof Rollback) return refuse(err.answer as WebhookAnswer, 'conflict', items.length);
          if (err instanceof IngestRetry && attempt < MAX_ATTEMPTS) continue;
          throw err;
        }
      }
    },

    /** Stops the debounced cohort drain (the server is closing); waits for one under way. */
    async close() {
      closed = true;
      if (drainTimer) clearTimeout(drainTimer);
      drainTimer = null;
      await draining;
    },

    /** A request refused before the handler ran (the body was over the limit): logged for the site's health. */
    async refusedEarly(siteIdText: string, status: number, result: DeliveryResult, message: string, bytes: number) {
      const site = await loadSite(siteIdText);
      if (site) await logDelivery(db, { site_id: site.id, events: null, http_status: status, result, message, bytes });
      return Boolean(site);
    },

    /**
     * Orders from a spreadsheet whose headers are the webhook's field names: each row one event
     * (`event` defaults to order.paid), checked as the webhook checks them, idempotent like its
     * resends. All or nothing: one bad row and nothing is stored; a dry run stores nothing.
     */
    async importOrders(ctx: RequestContext, body: ImportOrdersBody): Promise<ImportOrdersResult> {
      const site = await db.selectFrom('sites').select(['id', 'link_template']).where('id', '=', body.site_id).where('deleted_at', 'is', null).executeTakeFirst();
      if (!site) throw new AppError('SITE_NOT_FOUND', {}, 'site_id');
      const file = await openImportFile(body.filename, decodeBase64File(body.content_base64, 'content_base64'), {
        limits: { maxRows: MAX_IMPORT_ROWS, maxUnpackedBytes: MAX_IMPORT_UNPACKED_BYTES },
        field: 'content_base64',
      });
      // Headers are the webhook's field names (case and surrounding spaces do not matter).
      const headerOf = new Map<string, string>();
      for (const h of file.headers) {
        const key = h.trim().toLowerCase();
        if ((EVENT_FIELDS as readonly string[]).includes(key) && !headerOf.has(key)) headerOf.set(key, h);
      }
      const missing = ['order_no', 'amount', 'currency', 'paid_at', 'app_user_id'].filter((k) => !headerOf.has(k));
      if (missing.length) {
        await file.close();
        throw new AppError('ORDER_IMPORT_MISSING_COLUMNS', { columns: missing.join(', ') }, 'content_base64');
      }

      const result: ImportOrdersResult = { accepted: 0, paid: 0, refunded: 0, duplicates: 0, errors: [] };
      const pushError = (e: ImportOrdersResult['errors'][number]) => {
        if (result.errors.length < MAX_IMPORT_ERRORS) result.errors.push(e);
      };
      const now = clock.now();
      const run = async (trx: Db) => {
        let chunk: (IngestItem & { row: number })[] = [];
        const flush = async () => {
          if (!chunk.length) return;
          const r = await ingestEvents(trx, { site, reportTimezone, now, source: 'import', lang: ctx.lang, lock: 'site' }, chunk);
          if (r.conflicts.length) for (const c of r.conflicts) pushError({ row: chunk[c.index]!.row, field: 'order_no', message: c.message });
          else {
            result.accepted += r.accepted;
            result.paid += r.paid;
            result.refunded += r.refunded;
            result.duplicates += r.duplicates;
          }
          chunk = [];
        };
        let errorCount = 0;
        for await (const r of file.rows) {
          const raw: Record<string, unknown> = {};
          for (const [key, header] of headerOf) {
            const v = r.values[header];
            if (v) raw[key] = v;
          }
          raw.event ??= 'order.paid';
          const parsed = parseOrderEvent(raw, { lang: ctx.lang, looseZone: reportTimezone });
          if (!parsed.event) {
            errorCount += parsed.errors.length;
            for (const e of parsed.errors) pushError({ row: r.row, field: e.field, message: e.message });
            continue;
          }
          chunk.push({ event: parsed.event, raw: parsed.raw, field: 'order_no', row: r.row });
          if (chunk.length >= IMPORT_CHUNK) await flush();
        }
        await flush();
        if (errorCount > MAX_IMPORT_ERRORS && result.errors.length >= MAX_IMPORT_ERRORS) {
          result.errors[MAX_IMPORT_ERRORS - 1] = { row: 0, field: 'content_base64', message: formatMessage('ORDER_IMPORT_TOO_MANY_ERRORS', ctx.lang, { max: MAX_IMPORT_ERRORS - 1 }) };
        }
        if (result.errors.length || body.dry_run) throw new Rollback(null);
        await writeAudit(trx, ctx, {
          action: 'order.import',
          entity_type: 'site',
          entity_id: site.id,
          after: { filename: body.filename, accepted: result.accepted, duplicates: result.duplicates },
        });
      };
      try {
        await db.transaction().execute(run);
        if (result.accepted) cohortsChanged();
      } catch (err) {
        if (!(err instanceof Rollback)) throw err;
      } finally {
        await file.close();
      }
      // Counts of an import with errors would mislead: nothing was stored.
      if (result.errors.length) return { accepted: 0, paid: 0, refunded: 0, duplicates: 0, errors: result.errors };
      return result;
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
