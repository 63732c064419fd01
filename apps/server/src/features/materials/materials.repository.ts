import { formatMessage, IS_ADMIN_SUPER, type ErrorKey, type Lang, type ListMaterialsBody, type ListPushesBody, type MaterialFacets, type PushCounts, type PushState } from '@ads/contracts';
import { sql, type ExpressionBuilder, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB, MaterialPushState } from '../../db/schema.ts';
import { escapeLike, iso } from '../../lib/sql.ts';

/**
 * Which materials a caller sees (PRODUCT.md "Data scope"): `all` for managers; otherwise those of
 * `departments`, those uploaded or edited by one of `users`, and — unless `duplicates` is false —
 * those `userId` uploaded again as a duplicate (they hold the same bytes: they may see and use the
 * material, not change it). `accounts`: the ad accounts whose pushes they see (null = all).
 */
export interface MaterialScope {
  all: boolean;
  userId: number;
  departments: number[];
  users: number[];
  accounts: number[] | null;
  duplicates?: boolean;
}

const none = sql<boolean>`false`;

type MaterialEb = ExpressionBuilder<DB & { m: DB['materials'] }, 'm'>;

/** The scope as a condition on `materials as m`. */
function inScope(eb: MaterialEb, scope: MaterialScope) {
  if (scope.all) return sql<boolean>`true`;
  const ors = [];
  if (scope.duplicates !== false) {
    ors.push(eb.exists(eb.selectFrom('material_uploads as mu').select('mu.material_id').whereRef('mu.material_id', '=', 'm.id').where('mu.user_id', '=', scope.userId)));
  }
  if (scope.departments.length) ors.push(eb('m.department_id', 'in', scope.departments));
  if (scope.users.length) ors.push(eb('m.uploader_id', 'in', scope.users), eb('m.editor_id', 'in', scope.users));
  return ors.length ? eb.or(ors) : none;
}

/** `and mp.ad_account_id in (…)` for the pushes the scope sees. */
const accountFilter = (scope: MaterialScope, column = sql.ref('mp.ad_account_id')) =>
  scope.accounts === null ? sql`` : scope.accounts.length ? sql`and ${column} in (${sql.join(scope.accounts)})` : sql`and ${none}`;

/** The list's filters; `ids` (not on the list endpoint) narrows to those materials (the publish wizard's). */
export type MaterialFilters = Omit<ListMaterialsBody, 'page' | 'page_size'> & { ids?: readonly number[] };

const ACTIVE_STATES: PushState[] = ['pending', 'uploading', 'processing'];

function base(db: Db, f: MaterialFilters, scope: MaterialScope, tz: string) {
  let q = db.selectFrom('materials as m').where('m.deleted_at', 'is', null).where((eb) => inScope(eb, scope));
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    const md5 = f.keyword.toLowerCase();
    q = q.where((eb) => eb.or([eb('m.file_name', 'ilike', like), eb('m.remark', 'ilike', like), eb('m.md5', '=', md5)]));
  }
  if (f.ids) q = q.where('m.id', 'in', f.ids.length ? [...f.ids] : [0]);
  if (f.kind) q = q.where('m.kind', '=', f.kind);
  if (f.platform) q = q.where('m.platform', '=', f.platform);
  if (f.drama_id) q = q.where('m.drama_id', '=', f.drama_id);
  if (f.product_id) q = q.where('m.product_id', '=', f.product_id);
  if (f.editor_id) q = q.where('m.editor_id', '=', f.editor_id);
  if (f.uploader_id) q = q.where('m.uploader_id', '=', f.uploader_id);
  if (f.language) q = q.where('m.language', '=', f.language);
  if (f.tags?.length) q = q.where(sql<boolean>`m.tags @> ${sql.val(f.tags)}::text[]`);
  // Days are days of the reporting time zone: [date_from 00:00, date_to + 1 00:00) there.
  if (f.date_from) q = q.where(sql<boolean>`m.created_at >= (${f.date_from}::date::timestamp at time zone ${tz})`);
  if (f.date_to) q = q.where(sql<boolean>`m.created_at < ((${f.date_to}::date + 1)::timestamp at time zone ${tz})`);
  if (f.push) {
    const account = f.ad_account_id ? sql`and mp.ad_account_id = ${f.ad_account_id}` : sql``;
    const pushes = (states: readonly string[] | null) =>
      sql<boolean>`exists (select 1 from material_pushes mp where mp.material_id = m.id ${account} ${accountFilter(scope)}
        ${states ? sql`and mp.state in (${sql.join(states)})` : sql``})`;
    if (f.push === 'none') q = q.where(sql<boolean>`not ${pushes(null)}`);
    if (f.push === 'some') q = q.where(pushes(['ready']));
    if (f.push === 'failed') q = q.where(pushes(['failed']));
    if (f.push === 'active') q = q.where(pushes(ACTIVE_STATES));
  }
  return q;
}

type Base = ReturnType<typeof base>;

function withColumns(q: Base, scope: MaterialScope) {
  return q
    .leftJoin('dramas as d', 'd.id', 'm.drama_id')
    .leftJoin('products as p', 'p.id', 'm.product_id')
    .leftJoin('users as e', 'e.id', 'm.editor_id')
    .innerJoin('users as up', 'up.id', 'm.uploader_id')
    .leftJoin('departments as dep', 'dep.id', 'm.department_id')
    .select([
      'm.id',
      'm.kind',
      'm.platform',
      'm.file_name',
      'm.mime_type',
      'm.size_bytes',
      'm.md5',
      'm.duration_s',
      'm.width',
      'm.height',
      'm.storage_key',
      'm.thumb_key',
      'm.drama_id',
      'd.name as drama_name',
      'm.product_id',
      'p.name as product_name',
      'm.language',
      'm.editor_id',
      'e.name as editor_name',
      'm.tags',
      'm.remark',
      'm.uploader_id',
      'up.name as uploader_name',
      'm.department_id',
      'dep.name as department_name',
      'm.created_at',
      'm.updated_at',
      sql<PushCounts>`(select json_build_object(
          'pending', count(*) filter (where mp.state = 'pending'),
          'uploading', count(*) filter (where mp.state = 'uploading'),
          'processing', count(*) filter (where mp.state = 'processing'),
          'ready', count(*) filter (where mp.state = 'ready'),
          'failed', count(*) filter (where mp.state = 'failed'))
        from material_pushes mp where mp.material_id = m.id ${accountFilter(scope)})`.as('push_counts'),
      // Ads published on it that still live (a deleted or archived ad no longer holds the material);
      // usages recorded before ads were tied to them count as they are.
      sql<number>`(select count(distinct mu.platform_ad_id) from material_usages mu left join ads a on a.id = mu.ad_id
        where mu.material_id = m.id and (mu.ad_id is null or (a.deleted_at is null and a.effective_status not in ('DELETED', 'ARCHIVED'))))`.as('ads_using'),
    ]);
}

export type MaterialListRow = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

const SORT: Record<string, string> = { id: 'm.id', created_at: 'm.created_at', size_bytes: 'm.size_bytes', duration_s: 'm.duration_s' };

export async function listMaterials(db: Db, body: ListMaterialsBody & { ids?: readonly number[] }, scope: MaterialScope, tz: string) {
  const q = base(db, body, scope, tz);
  const field = body.sort_field ?? 'id';
  const dir = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'file_name' ? 'asc' : 'desc';
  const order = field === 'file_name' ? sql`lower(m.file_name)` : sql.ref(SORT[field] ?? 'm.id');
  const [rows, count] = await Promise.all([
    withColumns(q, scope)
      .orderBy(order, (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('m.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Live materials by id, inside the scope (ids outside it or deleted are simply absent). */
export function findMaterials(db: Db, ids: readonly number[], scope: MaterialScope) {
  if (!ids.length) return Promise.resolve([]);
  return withColumns(base(db, {}, scope, 'UTC').where('m.id', 'in', ids), scope).execute();
}

/** The live material with this content, inside the scope. */
export function findMaterialByMd5(db: Db, md5: string, scope: MaterialScope) {
  return withColumns(base(db, {}, scope, 'UTC').where('m.md5', '=', md5), scope).executeTakeFirst();
}

/** The facets of the library: tags in use (most used first), editors, uploaders and languages. */
export async function materialFacets(db: Db, platform: 'dj' | 'ec' | undefined, scope: MaterialScope): Promise<MaterialFacets> {
  const q = base(db, { platform }, scope, 'UTC');
  const [tags, editors, uploaders, languages] = await Promise.all([
    db
      .selectFrom(q.select(sql<string>`unnest(m.tags)`.as('tag')).as('t'))
      .select(['t.tag', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('t.tag')
      .orderBy('count', 'desc')
      .orderBy('t.tag')
      .limit(200)
      .execute(),
    q.innerJoin('users as u', 'u.id', 'm.editor_id').select(['u.id', 'u.name']).distinct().orderBy('u.name').limit(500).execute(),
    q.innerJoin('users as u', 'u.id', 'm.uploader_id').select(['u.id', 'u.name']).distinct().orderBy('u.name').limit(500).execute(),
    q.select('m.language').where('m.language', 'is not', null).distinct().orderBy('m.language').limit(200).execute(),
  ]);
  return {
    tags: tags.map((t) => ({ tag: t.tag, count: Number(t.count) })),
    editors,
    uploaders,
    languages: languages.map((l) => l.language!),
  };
}

// ---- pushes ---------------------------------------------------------------------------------

function pushesBase(db: Db, f: Omit<ListPushesBody, 'page' | 'page_size'>, scope: MaterialScope) {
  let q = db
    .selectFrom('material_pushes as mp')
    .innerJoin('materials as m', 'm.id', 'mp.material_id')
    .innerJoin('ad_accounts as a', 'a.id', 'mp.ad_account_id')
    .where('m.deleted_at', 'is', null)
    .where((eb) => inScope(eb as unknown as MaterialEb, scope));
  if (scope.accounts !== null) q = scope.accounts.length ? q.where('mp.ad_account_id', 'in', scope.accounts) : q.where(none);
  if (f.material_id) q = q.where('mp.material_id', '=', f.material_id);
  if (f.ad_account_id) q = q.where('mp.ad_account_id', '=', f.ad_account_id);
  if (f.state) q = q.where('mp.state', '=', f.state);
  if (f.task_id) q = q.where('mp.task_id', '=', f.task_id);
  return q;
}

function pushColumns(q: ReturnType<typeof pushesBase>) {
  return q
    .leftJoin('users as pb', 'pb.id', 'mp.pushed_by')
    .select([
      'mp.id',
      'mp.material_id',
      'm.file_name',
      'mp.ad_account_id',
      'a.name as ad_account_name',
      'a.platform_id as ad_account_platform_id',
      'mp.state',
      'mp.platform_ref',
      'mp.error',
      'mp.error_key',
      'mp.error_params',
      'mp.attempts',
      'mp.pushed_by',
      'pb.name as pushed_by_name',
      'mp.task_id',
      'mp.created_at',
      'mp.updated_at',
      'mp.finished_at',
    ]);
}

type PushRowOut = Awaited<ReturnType<ReturnType<typeof pushColumns>['execute']>>[number];

/** A push's failure in the reader's language: our reason by its key, else the platform's words. */
export function pushError(r: { error: string | null; error_key: string | null; error_params: unknown }, lang: Lang): string | null {
  if (r.error_key) return formatMessage(r.error_key as ErrorKey, lang, (r.error_params as Record<string, unknown> | null) ?? {});
  return r.error;
}

export function toPush(r: PushRowOut, lang: Lang) {
  return {
    id: r.id,
    material: { id: r.material_id, name: r.file_name },
    ad_account: { id: r.ad_account_id, name: r.ad_account_name, platform_id: r.ad_account_platform_id },
    state: r.state,
    // A video id is kept from the start of its upload; it becomes the push's reference once the platform has the whole file.
    platform_ref: r.state === 'processing' || r.state === 'ready' ? r.platform_ref : null,
    error: pushError(r, lang),
    attempts: r.attempts,
    pushed_by: r.pushed_by !== null ? { id: r.pushed_by, name: r.pushed_by_name ?? '' } : null,
    task_id: r.task_id === null ? null : Number(r.task_id),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    finished_at: iso(r.finished_at),
  };
}

const STATE_ORDER = sql`case mp.state when 'failed' then 0 when 'uploading' then 1 when 'processing' then 2 when 'pending' then 3 else 4 end`;

export async function listPushes(db: Db, body: ListPushesBody, scope: MaterialScope, lang: Lang) {
  const q = pushesBase(db, body, scope);
  const field = body.sort_field ?? 'id';
  const dir = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'state' ? 'asc' : 'desc';
  const order = field === 'state' ? STATE_ORDER : sql.ref(field === 'updated_at' ? 'mp.updated_at' : 'mp.id');
  const [rows, count] = await Promise.all([
    pushColumns(q)
      .orderBy(order, dir)
      .orderBy('mp.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => toPush(r, lang)), total: Number(count.total) };
}

/** Pushes by id inside the scope (for retry). */
export function findPushes(db: Db, filter: { ids?: readonly number[]; materialId?: number }, scope: MaterialScope) {
  let q = pushesBase(db, {}, scope);
  if (filter.ids) q = q.where('mp.id', 'in', filter.ids.length ? filter.ids : [0]);
  if (filter.materialId) q = q.where('mp.material_id', '=', filter.materialId);
  return q.select(['mp.id', 'mp.material_id', 'mp.ad_account_id', 'mp.state', 'm.file_name']).execute();
}

// ---------------------------------------------------------------------------------------------
// The push jobs (materials.jobs.ts).

/** A push with its material and ad account, as the push job works on it. */
export interface PushRow {
  id: number;
  material_id: number;
  ad_account_id: number;
  state: MaterialPushState;
  platform_ref: string | null;
  upload_session_id: string | null;
  attempts: number;
  account_platform_id: string;
  account_name: string;
  kind: 'video' | 'image';
  file_name: string;
  md5: string;
  size_bytes: number;
  storage_key: string;
  deleted_at: Date | null;
}

/** `taskId`: only pushes of that task (or of none): a push queued again by a later task is that task's. */
export function loadPushes(db: Db, filter: { ids?: readonly number[]; states: readonly MaterialPushState[]; taskId?: number }) {
  let q = db
    .selectFrom('material_pushes as mp')
    .innerJoin('materials as m', 'm.id', 'mp.material_id')
    .innerJoin('ad_accounts as a', 'a.id', 'mp.ad_account_id')
    .select([
      'mp.id',
      'mp.material_id',
      'mp.ad_account_id',
      'mp.state',
      'mp.platform_ref',
      'mp.upload_session_id',
      'mp.attempts',
      'a.platform_id as account_platform_id',
      'a.name as account_name',
      'm.kind',
      'm.file_name',
      'm.md5',
      'm.size_bytes',
      'm.storage_key',
      'm.deleted_at',
    ])
    .where('mp.state', 'in', filter.states);
  if (filter.ids) q = q.where('mp.id', 'in', filter.ids.length ? filter.ids : [0]);
  const taskId = filter.taskId;
  if (taskId !== undefined) q = q.where((eb) => eb.or([eb('mp.task_id', '=', taskId), eb('mp.task_id', 'is', null)]));
  return q.orderBy('mp.id').execute() as Promise<PushRow[]>;
}

/** Writes a push's state and what came with it. */
export async function updatePush(db: Db, id: number, values: Partial<{ state: MaterialPushState; platform_ref: string | null; upload_session_id: string | null; error: string | null; error_key: string | null; error_params: string | null; attempts: number; finished_at: Date | null }>, now: Date) {
  await db
    .updateTable('material_pushes')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Personal accounts with a usable token that reach an ad account: valid ones first, then the freshest. */
export function tokensReaching(db: Db, adAccountId: number) {
  return db
    .selectFrom('personal_account_ad_accounts as l')
    .innerJoin('personal_accounts as pa', 'pa.id', 'l.personal_account_id')
    .select(['pa.id', 'pa.token_enc'])
    .where('l.ad_account_id', '=', adAccountId)
    .where('l.reachable', '=', true)
    .where('pa.deleted_at', 'is', null)
    .where('pa.token_enc', 'is not', null)
    .where('pa.status', '!=', 'invalid')
    .orderBy('pa.status', 'desc') // 'valid' before 'expiring'
    .orderBy('pa.last_synced_at', (ob) => ob.desc().nullsLast())
    .orderBy('pa.id')
    .execute();
}

/** The pushes of a task (or of none) among `ids`, with how they ended. */
export function taskPushOutcomes(db: Db, ids: readonly number[], taskId: number) {
  return db
    .selectFrom('material_pushes as mp')
    .innerJoin('materials as m', 'm.id', 'mp.material_id')
    .innerJoin('ad_accounts as a', 'a.id', 'mp.ad_account_id')
    .select(['mp.state', 'mp.error', 'mp.error_key', 'mp.error_params', 'm.file_name', 'a.name as account_name'])
    .where('mp.id', 'in', ids.length ? [...ids] : [0])
    .where((eb) => eb.or([eb('mp.task_id', '=', taskId), eb('mp.task_id', 'is', null)]))
    .execute();
}

/** Marks failed the pending or uploading pushes with no live run behind them (cancelled, or out of retries). */
export function failOrphanPushes(db: Db, now: Date) {
  return db
    .updateTable('material_pushes as mp')
    .set({ state: 'failed', error: null, error_key: 'PUSH_INTERRUPTED', error_params: null, upload_session_id: null, updated_at: now, finished_at: now })
    .where('mp.state', 'in', ['pending', 'uploading'])
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('job_runs as r').select('r.id').whereRef('r.id', '=', 'mp.task_id').where('r.status', 'in', ['queued', 'running']))),
    )
    .returning('mp.id')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// What materials.service.ts writes and checks.

export function liveMaterialIds(db: Db, ids: readonly number[]) {
  return db.selectFrom('materials').select('id').where('id', 'in', [...ids]).where('deleted_at', 'is', null).execute();
}

export async function liveDramaExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('dramas').select('id').where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst());
}

export async function liveProductExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('products').select('id').where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst());
}

/** A user who may be named as a material's editor: not deleted, not the super admin. */
export async function editorExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('users').select('id').where('id', '=', id).where('deleted_at', 'is', null).where('is_admin', '!=', IS_ADMIN_SUPER).executeTakeFirst());
}

/** Stamps pushes with the task that carries them (1000 ids per statement). */
export async function stampPushTask(trx: Db, pushIds: readonly number[], taskId: number) {
  for (let i = 0; i < pushIds.length; i += 1000) {
    await trx.updateTable('material_pushes').set({ task_id: taskId }).where('id', 'in', pushIds.slice(i, i + 1000)).execute();
  }
}

export async function updateMaterial(trx: Db, id: number, set: Updateable<DB['materials']>) {
  await trx.updateTable('materials').set(set).where('id', '=', id).execute();
}

/** Soft delete; pushes still on their way fail, as they cannot finish without the file. */
export async function softDeleteMaterials(trx: Db, ids: readonly number[], now: Date) {
  await trx.updateTable('materials').set({ deleted_at: now, updated_at: now }).where('id', 'in', [...ids]).where('deleted_at', 'is', null).execute();
  await trx
    .updateTable('material_pushes')
    .set({ state: 'failed', error: null, error_key: 'PUSH_MATERIAL_GONE', error_params: null, updated_at: now, finished_at: now })
    .where('material_id', 'in', [...ids])
    .where('state', 'in', ['pending', 'uploading'])
    .execute();
}

/** A finished upload of this user. */
export function findUpload(db: Db, uploadId: string, userId: number) {
  return db.selectFrom('material_uploads').select(['material_id', 'status', 'size_bytes']).where('id', '=', uploadId).where('user_id', '=', userId).executeTakeFirst();
}

/** Records what an upload became; `ignoreExisting`: an upload already recorded stays as it is. */
export async function recordUpload(db: Db, values: Insertable<DB['material_uploads']>, opts: { ignoreExisting?: boolean } = {}) {
  let q = db.insertInto('material_uploads').values(values);
  if (opts.ignoreExisting) q = q.onConflict((oc) => oc.column('id').doNothing());
  await q.execute();
}

export function liveMaterialWithMd5(db: Db, md5: string) {
  return db.selectFrom('materials').select('id').where('md5', '=', md5).where('deleted_at', 'is', null).executeTakeFirst();
}

export function insertMaterial(trx: Db, values: Insertable<DB['materials']>) {
  return trx.insertInto('materials').values(values).returning('id').executeTakeFirstOrThrow();
}

/** What the signed file routes serve of a (not deleted) material. */
export function materialFile(db: Db, id: number) {
  return db.selectFrom('materials').select(['storage_key', 'thumb_key', 'mime_type', 'size_bytes', 'md5', 'file_name']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export function existingAdAccountIds(db: Db, ids: readonly number[]) {
  return db.selectFrom('ad_accounts').select('id').where('id', 'in', [...ids]).execute();
}

export function existingPushIds(db: Db, ids: readonly number[]) {
  return db.selectFrom('material_pushes').select('id').where('id', 'in', [...ids]).execute();
}

/** New pushes of the pairs; a pair already pushed or on its way is left alone, a failed one queued again. Answers the queued ids. */
export function insertPushes(trx: Db, pairs: readonly { material_id: number; ad_account_id: number }[], pushedBy: number, now: Date) {
  return trx
    .insertInto('material_pushes')
    .values(pairs.map((p) => ({ ...p, state: 'pending' as const, pushed_by: pushedBy, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc
        .columns(['material_id', 'ad_account_id'])
        .doUpdateSet({ state: 'pending', error: null, error_key: null, error_params: null, pushed_by: pushedBy, updated_at: now, finished_at: null })
        .where('material_pushes.state', '=', 'failed'),
    )
    .returning('id')
    .execute();
}

/** Failed pushes among `ids` are pending again. */
export async function requeueFailedPushes(trx: Db, ids: readonly number[], pushedBy: number, now: Date) {
  await trx
    .updateTable('material_pushes')
    .set({ state: 'pending', error: null, error_key: null, error_params: null, pushed_by: pushedBy, updated_at: now, finished_at: null })
    .where('id', 'in', [...ids])
    .where('state', '=', 'failed')
    .execute();
}

// ---- publishing (features/publish through materials.service.ts) ------------------------------

/** The push of each (material, ad account) pair that has one, with what a publish needs of the material. */
export function pushesOfPairs(db: Db, materialIds: readonly number[], adAccountIds: readonly number[]) {
  return db
    .selectFrom('material_pushes as mp')
    .innerJoin('materials as m', 'm.id', 'mp.material_id')
    .select(['mp.id', 'mp.material_id', 'mp.ad_account_id', 'mp.state', 'mp.platform_ref', 'mp.error', 'mp.error_key', 'mp.error_params', 'm.kind', 'm.file_name', 'm.deleted_at'])
    .where('mp.material_id', 'in', [...materialIds])
    .where('mp.ad_account_id', 'in', [...adAccountIds])
    .execute();
}

/** New pushes for pairs without one (and, with `requeueFailed`, failed ones pending again); answers the ids now pending. */
export function insertMissingPushes(trx: Db, pairs: readonly { material_id: number; ad_account_id: number }[], pushedBy: number, now: Date, requeueFailed: boolean) {
  if (requeueFailed) return insertPushes(trx, pairs, pushedBy, now);
  return trx
    .insertInto('material_pushes')
    .values(pairs.map((p) => ({ ...p, state: 'pending' as const, pushed_by: pushedBy, created_at: now, updated_at: now })))
    .onConflict((oc) => oc.columns(['material_id', 'ad_account_id']).doNothing())
    .returning('id')
    .execute();
}

export function materialFiles(db: Db, ids: readonly number[]) {
  return db.selectFrom('materials').select(['id', 'kind', 'file_name', 'storage_key', 'thumb_key', 'size_bytes', 'mime_type']).where('id', 'in', [...ids]).execute();
}

export async function insertUsages(db: Db, rows: readonly { material_id: number; ad_account_id: number; platform_ad_id: string; ad_id: number | null; role: 'video' | 'cover' | 'image'; created_at: Date }[]) {
  if (!rows.length) return;
  await db
    .insertInto('material_usages')
    .values([...rows])
    .onConflict((oc) => oc.columns(['material_id', 'platform_ad_id', 'role']).doUpdateSet((eb) => ({ ad_id: eb.fn.coalesce('excluded.ad_id', 'material_usages.ad_id') })))
    .execute();
}

/** The pushes of these materials to one ad account, with what a caller waiting for them reads. */
export function pushesTo(db: Db, materialIds: readonly number[], adAccountId: number) {
  return materialIds.length ? pushesOfPairs(db, materialIds, [adAccountId]) : Promise.resolve([]);
}

/** Live materials among `ids`, with their file name and kind. */
export function materialsByIds(db: Db, ids: readonly number[]) {
  return db.selectFrom('materials').select(['id', 'file_name', 'kind']).where('id', 'in', ids.length ? [...ids] : [0]).where('deleted_at', 'is', null).execute();
}
