import type { ListSchemeItemsBody, ListSchemesBody, SchemeCounts } from '@ads/contracts';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SchemeItemStatus, SchemeStatus } from '../../db/schema.ts';
import { escapeLike } from '../../lib/sql.ts';

// SQL of publishing: the wizard's lookups, schemes and their items, templates.

/** Ad accounts for the wizard (all of `ids`, or every one when null), with the best token that reaches each. */
export function publishAccounts(db: Db, ids: readonly number[] | null, keyword?: string) {
  let q = db
    .selectFrom('ad_accounts as a')
    .select([
      'a.id',
      'a.platform_id',
      'a.name',
      'a.currency',
      'a.timezone_name',
      'a.account_status',
      'a.balance_minor',
      'a.spend_cap_minor',
      'a.platform',
      sql<string | null>`(select pa.status from personal_account_ad_accounts l join personal_accounts pa on pa.id = l.personal_account_id
        where l.ad_account_id = a.id and l.reachable and pa.deleted_at is null and pa.token_enc is not null
        order by case pa.status when 'valid' then 0 when 'expiring' then 1 else 2 end, pa.token_expires_at desc nulls first limit 1)`.as('token_status'),
      sql<Date | null>`(select pa.token_expires_at from personal_account_ad_accounts l join personal_accounts pa on pa.id = l.personal_account_id
        where l.ad_account_id = a.id and l.reachable and pa.deleted_at is null and pa.token_enc is not null
        order by case pa.status when 'valid' then 0 when 'expiring' then 1 else 2 end, pa.token_expires_at desc nulls first limit 1)`.as('token_expires_at'),
    ]);
  if (ids) q = q.where('a.id', 'in', ids.length ? [...ids] : [0]);
  if (keyword) {
    const like = `%${escapeLike(keyword)}%`;
    q = q.where((eb) => eb.or([eb('a.name', 'ilike', like), eb('a.platform_id', 'ilike', like), eb('a.account_id', '=', keyword)]));
  }
  return q.orderBy('a.name').orderBy('a.id').execute();
}

/**
 * Pages usable with each account by `userId`: associated with the account (主页关联), or with the
 * user and reached by a personal account that reaches the account too.
 */
export function pagesOfAccounts(db: Db, accountIds: readonly number[], userId: number) {
  if (!accountIds.length) return Promise.resolve([]);
  return db
    .selectFrom('ad_accounts as a')
    .innerJoin('pages as p', (j) =>
      j.on(
        sql<SqlBool>`(exists (select 1 from page_ad_accounts x where x.page_id = p.id and x.ad_account_id = a.id)
        or (exists (select 1 from page_users u where u.page_id = p.id and u.user_id = ${userId})
            and exists (select 1 from personal_account_pages pp join personal_account_ad_accounts pl on pl.personal_account_id = pp.personal_account_id
                        where pp.page_id = p.id and pp.reachable and pl.ad_account_id = a.id and pl.reachable)))`,
      ),
    )
    .select(['a.id as ad_account_id', 'p.id', 'p.platform_id', 'p.name', 'p.picture_url'])
    .where('a.id', 'in', [...accountIds])
    .orderBy('p.name')
    .execute();
}

/** Pixels shared with each account. */
export function pixelsOfAccounts(db: Db, accountIds: readonly number[]) {
  if (!accountIds.length) return Promise.resolve([]);
  return db
    .selectFrom('pixel_ad_accounts as x')
    .innerJoin('pixels as px', 'px.id', 'x.pixel_id')
    .select(['x.ad_account_id', 'px.id', 'px.platform_id', 'px.name', 'px.last_fired_at'])
    .where('x.ad_account_id', 'in', [...accountIds])
    .orderBy('px.name')
    .execute();
}

export function liveDrama(db: Db, id: number) {
  return db
    .selectFrom('dramas as d')
    .innerJoin('sites as s', 's.id', 'd.site_id')
    .select(['d.id', 'd.name', 'd.external_id', 'd.site_id', 's.name as site_name', 's.domain', 's.link_template', 's.pixel_id', 's.deleted_at as site_deleted_at'])
    .where('d.id', '=', id)
    .where('d.deleted_at', 'is', null)
    .executeTakeFirst();
}

export function liveProduct(db: Db, id: number) {
  return db
    .selectFrom('products as p')
    .innerJoin('sites as s', 's.id', 'p.site_id')
    .select(['p.id', 'p.name', 'p.external_id', 'p.url', 'p.site_id', 's.name as site_name', 's.domain', 's.link_template', 's.pixel_id', 's.deleted_at as site_deleted_at'])
    .where('p.id', '=', id)
    .where('p.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Dramas or products for step 1, with their site and how many materials are preset to each. */
export function catalog(db: Db, platform: 'dj' | 'ec', f: { keyword?: string; site_id?: number; limit: number }) {
  const like = f.keyword ? `%${escapeLike(f.keyword)}%` : null;
  if (platform === 'dj') {
    let q = db
      .selectFrom('dramas as d')
      .innerJoin('sites as s', 's.id', 'd.site_id')
      .select([
        'd.id',
        'd.name',
        'd.external_id',
        'd.language',
        'd.episode_count',
        'd.cover_url',
        's.id as site_id',
        's.name as site_name',
        's.domain',
        's.link_template',
        's.pixel_id',
        sql<number>`(select count(*) from materials m where m.drama_id = d.id and m.deleted_at is null and m.kind = 'video')`.as('videos'),
        sql<number>`(select count(*) from materials m where m.drama_id = d.id and m.deleted_at is null and m.kind = 'image')`.as('images'),
      ])
      .where('d.deleted_at', 'is', null)
      .where('s.deleted_at', 'is', null);
    if (like) q = q.where((eb) => eb.or([eb('d.name', 'ilike', like), eb('d.external_id', 'ilike', like)]));
    if (f.site_id) q = q.where('s.id', '=', f.site_id);
    return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(f.limit).execute();
  }
  let q = db
    .selectFrom('products as d')
    .innerJoin('sites as s', 's.id', 'd.site_id')
    .select([
      'd.id',
      'd.name',
      'd.external_id',
      sql<string | null>`null`.as('language'),
      sql<number | null>`null`.as('episode_count'),
      'd.cover_url',
      's.id as site_id',
      's.name as site_name',
      's.domain',
      's.link_template',
      's.pixel_id',
      sql<number>`(select count(*) from materials m where m.product_id = d.id and m.deleted_at is null and m.kind = 'video')`.as('videos'),
      sql<number>`(select count(*) from materials m where m.product_id = d.id and m.deleted_at is null and m.kind = 'image')`.as('images'),
    ])
    .where('d.deleted_at', 'is', null)
    .where('s.deleted_at', 'is', null);
  if (like) q = q.where((eb) => eb.or([eb('d.name', 'ilike', like), eb('d.external_id', 'ilike', like)]));
  if (f.site_id) q = q.where('s.id', '=', f.site_id);
  return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(f.limit).execute();
}

/** Pages by id (posts used as creatives name their page). */
export function pagesById(db: Db, ids: readonly number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('pages').select(['id', 'platform_id', 'name']).where('id', 'in', [...ids]).execute();
}

// ---- schemes ---------------------------------------------------------------------------------

const COUNT_COLUMNS = sql<SchemeCounts>`json_build_object(
  'total', count(*),
  'pending', count(*) filter (where i.status = 'pending'),
  'creating', count(*) filter (where i.status = 'creating'),
  'created', count(*) filter (where i.status = 'created'),
  'failed', count(*) filter (where i.status = 'failed'),
  'cancelled', count(*) filter (where i.status = 'cancelled'))`;

function schemeBase(db: Db, users: readonly number[] | null) {
  let q = db
    .selectFrom('publish_schemes as s')
    .innerJoin('users as u', 'u.id', 's.created_by')
    .leftJoin('departments as dep', 'dep.id', 's.department_id')
    .leftJoin('dramas as d', 'd.id', 's.drama_id')
    .leftJoin('products as p', 'p.id', 's.product_id')
    .leftJoin('publish_templates as t', 't.id', 's.template_id');
  if (users) q = q.where('s.created_by', 'in', users.length ? [...users] : [0]);
  return q;
}

type SchemeBase = ReturnType<typeof schemeBase>;

function schemeColumns(q: SchemeBase) {
  return q.select([
    's.id',
    's.name',
    's.platform',
    's.status',
    's.drama_id',
    'd.name as drama_name',
    's.product_id',
    'p.name as product_name',
    's.created_by',
    'u.name as created_by_name',
    's.department_id',
    'dep.name as department_name',
    's.template_id',
    't.name as template_name',
    's.launch',
    's.planned',
    's.daily_budget_usd_cents',
    's.start_task_id',
    's.message',
    's.message_en',
    's.created_at',
    's.started_at',
    's.finished_at',
    sql<SchemeCounts>`(select ${COUNT_COLUMNS} from publish_scheme_items i where i.scheme_id = s.id)`.as('counts'),
    sql<{ campaigns: number; adsets: number; ads: number }>`(select json_build_object(
        'campaigns', count(*) filter (where i.level = 'campaign'),
        'adsets', count(*) filter (where i.level = 'adset'),
        'ads', count(*) filter (where i.level = 'ad'))
      from publish_scheme_items i where i.scheme_id = s.id and i.status = 'created')`.as('created_objects'),
    // The scheme's latest run: continuations and retries are new runs of the same job.
    sql<number | null>`(select max(r.id) from job_runs r where r.job_name = 'publish-scheme' and r.concurrency_key = ${sql.lit('scheme:')} || s.id::text)`.as('task_id'),
  ]);
}

export type SchemeRow = Awaited<ReturnType<ReturnType<typeof schemeColumns>['execute']>>[number];

export async function listSchemes(db: Db, body: ListSchemesBody, users: readonly number[] | null, tz: string) {
  let q = schemeBase(db, users);
  if (body.platform) q = q.where('s.platform', '=', body.platform);
  if (body.status) q = q.where('s.status', '=', body.status);
  if (body.created_by) q = q.where('s.created_by', '=', body.created_by);
  if (body.drama_id) q = q.where('s.drama_id', '=', body.drama_id);
  if (body.product_id) q = q.where('s.product_id', '=', body.product_id);
  if (body.keyword) q = q.where('s.name', 'ilike', `%${escapeLike(body.keyword)}%`);
  if (body.date_from) q = q.where(sql<SqlBool>`(s.created_at at time zone ${tz})::date >= ${body.date_from}::date`);
  if (body.date_to) q = q.where(sql<SqlBool>`(s.created_at at time zone ${tz})::date <= ${body.date_to}::date`);
  const sort = body.sort_field === 'finished_at' ? 's.finished_at' : body.sort_field === 'id' ? 's.id' : 's.created_at';
  const dir = body.sort_order === 'ascend' ? 'asc' : 'desc';
  const [rows, count] = await Promise.all([
    schemeColumns(q)
      .orderBy(sql.ref(sort), (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('s.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export function findScheme(db: Db, id: number, users: readonly number[] | null) {
  return schemeColumns(schemeBase(db, users).where('s.id', '=', id)).executeTakeFirst();
}

export function schemeDraft(db: Db, id: number) {
  return db.selectFrom('publish_schemes').select(['id', 'draft', 'created_by', 'status', 'name', 'platform', 'launch', 'cancel_requested_at']).where('id', '=', id).executeTakeFirst();
}

export function accountCounts(db: Db, schemeId: number) {
  return db
    .selectFrom('publish_scheme_items as i')
    .innerJoin('ad_accounts as a', 'a.id', 'i.ad_account_id')
    .select(['a.id', 'a.name', 'a.platform_id', 'a.currency', COUNT_COLUMNS.as('counts')])
    .where('i.scheme_id', '=', schemeId)
    .groupBy(['a.id', 'a.name', 'a.platform_id', 'a.currency'])
    .orderBy('a.name')
    .execute();
}

export async function listItems(db: Db, body: ListSchemeItemsBody) {
  let q = db.selectFrom('publish_scheme_items as i').innerJoin('ad_accounts as a', 'a.id', 'i.ad_account_id').where('i.scheme_id', '=', body.scheme_id);
  if (body.status) q = q.where('i.status', '=', body.status);
  if (body.level) q = q.where('i.level', '=', body.level);
  if (body.ad_account_id) q = q.where('i.ad_account_id', '=', body.ad_account_id);
  const [rows, count] = await Promise.all([
    q
      .select([
        'i.id',
        'i.level',
        'i.key',
        'i.parent_id',
        'i.ad_account_id',
        'a.name as account_name',
        'a.platform_id as account_platform_id',
        'a.currency',
        'i.name',
        'i.status',
        'i.platform_id',
        'i.object_id',
        'i.waiting_for',
        'i.error',
        'i.error_en',
        'i.attempts',
        'i.material_id',
        'i.updated_at',
      ])
      .orderBy('i.seq')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export function schemeItems(db: Db, schemeId: number, statuses?: readonly SchemeItemStatus[]) {
  let q = db.selectFrom('publish_scheme_items').selectAll().where('scheme_id', '=', schemeId);
  if (statuses) q = q.where('status', 'in', [...statuses]);
  return q.orderBy('seq').execute();
}

export async function setSchemeStatus(db: Db, id: number, values: { status?: SchemeStatus; message?: string | null; message_en?: string | null; started_at?: Date; finished_at?: Date | null; start_task_id?: number }, now: Date) {
  await db
    .updateTable('publish_schemes')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

// ---- templates -------------------------------------------------------------------------------

export function listTemplates(db: Db, platform: 'dj' | 'ec', viewer: { id: number; department_id: number | null }, keyword?: string) {
  let q = db
    .selectFrom('publish_templates as t')
    .innerJoin('users as u', 'u.id', 't.owner_user_id')
    .leftJoin('departments as d', 'd.id', 't.department_id')
    .select(['t.id', 't.name', 't.platform', 't.visibility', 't.owner_user_id', 'u.name as owner_name', 't.department_id', 'd.name as department_name', 't.settings', 't.created_at', 't.updated_at'])
    .where('t.deleted_at', 'is', null)
    .where('t.platform', '=', platform)
    .where((eb) => eb.or([eb('t.owner_user_id', '=', viewer.id), ...(viewer.department_id ? [eb.and([eb('t.visibility', '=', 'department'), eb('t.department_id', '=', viewer.department_id)])] : [])]));
  if (keyword) q = q.where('t.name', 'ilike', `%${escapeLike(keyword)}%`);
  return q.orderBy('t.updated_at', 'desc').orderBy('t.id', 'desc').execute();
}

export function findTemplate(db: Db, id: number) {
  return db
    .selectFrom('publish_templates as t')
    .innerJoin('users as u', 'u.id', 't.owner_user_id')
    .leftJoin('departments as d', 'd.id', 't.department_id')
    .select(['t.id', 't.name', 't.platform', 't.visibility', 't.owner_user_id', 'u.name as owner_name', 't.department_id', 'd.name as department_name', 't.settings', 't.created_at', 't.updated_at'])
    .where('t.id', '=', id)
    .where('t.deleted_at', 'is', null)
    .executeTakeFirst();
}

export type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;
