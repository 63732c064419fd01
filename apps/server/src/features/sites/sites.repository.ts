import type { Drama, ListDramasBody, ListProductsBody, ListSitesBody, Product, Site } from '@ads/contracts';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../lib/sql.ts';
import type { ExportPage } from '../../lib/xlsx.ts';

/** Sort direction of a list body: the caller's, else newest first for ids and A→Z for the rest. */
export function direction(body: { sort_field?: string; sort_order?: 'ascend' | 'descend' }, field: string): 'asc' | 'desc' {
  if (body.sort_order === 'ascend') return 'asc';
  if (body.sort_order === 'descend') return 'desc';
  return field === 'id' || field === 'created_at' ? 'desc' : 'asc';
}

// ---- sites ----------------------------------------------------------------------------------

export type SiteFilters = Omit<ListSitesBody, 'page' | 'page_size'>;

function sitesQuery(db: Db, f: SiteFilters) {
  let q = db.selectFrom('sites as s').leftJoin('pixels as px', 'px.id', 's.pixel_id').where('s.deleted_at', 'is', null);
  if (f.platform) q = q.where('s.platform', '=', f.platform);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('s.name', 'ilike', like), eb('s.domain', 'ilike', like)]));
  }
  return q.select([
    's.id',
    's.name',
    's.domain',
    's.platform',
    's.link_template',
    's.pixel_id',
    'px.name as pixel_name',
    's.remark',
    's.created_at',
    's.updated_at',
    sql<number>`case when s.platform = 'dj'
      then (select count(*) from dramas d where d.site_id = s.id and d.deleted_at is null)
      else (select count(*) from products p where p.site_id = s.id and p.deleted_at is null) end`.as('catalog_count'),
  ]);
}

type SiteRowOut = Awaited<ReturnType<ReturnType<typeof sitesQuery>['execute']>>[number];

/** The order webhook of a site: served by the orders feature under this path. */
export const webhookPath = (siteId: number) => `/api/orders/webhook/${siteId}`;

export function toSite(r: SiteRowOut, publicUrl: string): Site {
  return {
    id: r.id,
    name: r.name,
    domain: r.domain,
    platform: r.platform,
    link_template: r.link_template,
    pixel: r.pixel_id !== null ? { id: r.pixel_id, name: r.pixel_name ?? '' } : null,
    remark: r.remark,
    webhook_url: `${publicUrl}${webhookPath(r.id)}`,
    catalog_count: Number(r.catalog_count),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export async function listSites(db: Db, body: ListSitesBody, publicUrl: string) {
  const field = body.sort_field ?? 'id';
  const dir = direction(body, field);
  const base = sitesQuery(db, body);
  const [rows, count] = await Promise.all([
    base
      .orderBy(field === 'name' ? sql`lower(s.name)` : `s.${field}`, dir)
      .orderBy('s.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    db
      .selectFrom(base.as('x'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => toSite(r, publicUrl)), total: Number(count.total) };
}

export async function findSite(db: Db, id: number, publicUrl: string): Promise<Site | undefined> {
  const row = await sitesQuery(db, {}).where('s.id', '=', id).executeTakeFirst();
  return row && toSite(row, publicUrl);
}

// ---- dramas ---------------------------------------------------------------------------------

export type DramaFilters = Omit<ListDramasBody, 'page' | 'page_size'>;

function dramasQuery(db: Db, f: DramaFilters) {
  let q = db.selectFrom('dramas as d').innerJoin('sites as s', 's.id', 'd.site_id').where('d.deleted_at', 'is', null).where('s.deleted_at', 'is', null);
  if (f.site_id) q = q.where('d.site_id', '=', f.site_id);
  if (f.language) q = q.where('d.language', '=', f.language);
  if (f.test_status) q = q.where('d.test_status', '=', f.test_status);
  if (f.tag) q = q.where(sql<boolean>`${f.tag} = any(d.tags)`);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('d.name', 'ilike', like), eb('d.external_id', 'ilike', like)]));
  }
  return q.select([
    'd.id',
    'd.site_id',
    's.name as site_name',
    'd.external_id',
    'd.name',
    'd.language',
    'd.episode_count',
    'd.cover_url',
    'd.tags',
    'd.test_status',
    'd.created_at',
    'd.updated_at',
  ]);
}

type DramaRowOut = Awaited<ReturnType<ReturnType<typeof dramasQuery>['execute']>>[number];

export function toDrama(r: DramaRowOut): Drama {
  return {
    id: r.id,
    site: { id: r.site_id, name: r.site_name },
    external_id: r.external_id,
    name: r.name,
    language: r.language,
    episode_count: r.episode_count,
    cover_url: r.cover_url,
    tags: r.tags,
    test_status: r.test_status,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const dramaOrder = (field: string) => (field === 'name' ? sql`lower(d.name)` : sql.ref(`d.${field}`));

export async function listDramas(db: Db, body: ListDramasBody) {
  const field = body.sort_field ?? 'id';
  const base = dramasQuery(db, body);
  const [rows, count] = await Promise.all([
    base
      .orderBy(dramaOrder(field), direction(body, field))
      .orderBy('d.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    db
      .selectFrom(base.as('x'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toDrama), total: Number(count.total) };
}

/** A slice of the matching dramas for export (lib/xlsx.ts refuses exports past its cap). */
export async function allDramas(db: Db, f: DramaFilters, page: ExportPage) {
  const field = f.sort_field ?? 'id';
  const rows = await dramasQuery(db, f).orderBy(dramaOrder(field), direction(f, field)).orderBy('d.id').limit(page.limit).offset(page.offset).execute();
  return rows.map(toDrama);
}

export async function findDrama(db: Db, id: number) {
  const row = await dramasQuery(db, {}).where('d.id', '=', id).executeTakeFirst();
  return row && toDrama(row);
}

// ---- products -------------------------------------------------------------------------------

export type ProductFilters = Omit<ListProductsBody, 'page' | 'page_size'>;

function productsQuery(db: Db, f: ProductFilters) {
  let q = db.selectFrom('products as p').innerJoin('sites as s', 's.id', 'p.site_id').where('p.deleted_at', 'is', null).where('s.deleted_at', 'is', null);
  if (f.site_id) q = q.where('p.site_id', '=', f.site_id);
  if (f.tag) q = q.where(sql<boolean>`${f.tag} = any(p.tags)`);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('p.name', 'ilike', like), eb('p.external_id', 'ilike', like)]));
  }
  return q.select(['p.id', 'p.site_id', 's.name as site_name', 'p.external_id', 'p.name', 'p.url', 'p.price', 'p.currency', 'p.cover_url', 'p.tags', 'p.created_at', 'p.updated_at']);
}

type ProductRowOut = Awaited<ReturnType<ReturnType<typeof productsQuery>['execute']>>[number];

export function toProduct(r: ProductRowOut): Product {
  return {
    id: r.id,
    site: { id: r.site_id, name: r.site_name },
    external_id: r.external_id,
    name: r.name,
    url: r.url,
    price: Number(r.price),
    currency: r.currency,
    cover_url: r.cover_url,
    tags: r.tags,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const productOrder = (field: string) => (field === 'name' ? sql`lower(p.name)` : sql.ref(`p.${field}`));

export async function listProducts(db: Db, body: ListProductsBody) {
  const field = body.sort_field ?? 'id';
  const base = productsQuery(db, body);
  const [rows, count] = await Promise.all([
    base
      .orderBy(productOrder(field), direction(body, field))
      .orderBy('p.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    db
      .selectFrom(base.as('x'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toProduct), total: Number(count.total) };
}

/** A slice of the matching products for export. */
export async function allProducts(db: Db, f: ProductFilters, page: ExportPage) {
  const field = f.sort_field ?? 'id';
  const rows = await productsQuery(db, f).orderBy(productOrder(field), direction(f, field)).orderBy('p.id').limit(page.limit).offset(page.offset).execute();
  return rows.map(toProduct);
}

export async function findProduct(db: Db, id: number) {
  const row = await productsQuery(db, {}).where('p.id', '=', id).executeTakeFirst();
  return row && toProduct(row);
}

export async function insertSite(db: Db, values: Insertable<DB['sites']>): Promise<number> {
  return (await db.insertInto('sites').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/** Changes a site that is not deleted. */
export async function updateSite(db: Db, id: number, values: Updateable<DB['sites']>) {
  await db.updateTable('sites').set(values).where('id', '=', id).where('deleted_at', 'is', null).execute();
}

/** The encrypted webhook secret of a site that is not deleted. */
export async function findWebhookSecretEnc(db: Db, id: number): Promise<string | undefined> {
  return (await db.selectFrom('sites').select('webhook_secret_enc').where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst())?.webhook_secret_enc;
}

// ---- catalog writes (dramas and products alike) -----------------------------------------------

/** The two catalogs share their key (site_id, external_id), soft delete and timestamps. */
export type CatalogTable = 'dramas' | 'products';
export type CatalogValues = Insertable<DB['dramas']> | Insertable<DB['products']>;
/** Kysely types a query for one table; every column used below exists in both, so one spelling serves. */
const one = (table: CatalogTable) => table as 'dramas';

export async function insertCatalogItem(db: Db, table: CatalogTable, values: CatalogValues): Promise<number> {
  return (await db.insertInto(one(table)).values(values as Insertable<DB['dramas']>).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateCatalogItem(db: Db, table: CatalogTable, id: number, values: Updateable<DB['dramas']> | Updateable<DB['products']>) {
  await db.updateTable(one(table)).set(values as Updateable<DB['dramas']>).where('id', '=', id).execute();
}

/** Soft delete: what names the entry keeps its history, and its external id is free again. */
export async function softDeleteCatalogItem(db: Db, table: CatalogTable, id: number, now: Date) {
  await db.updateTable(one(table)).set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
}

/** Inserts rows, or updates `columns` (and updated_at) of the live entry with the same site and external id. */
export async function upsertCatalogItems(db: Db, table: CatalogTable, rows: CatalogValues[], columns: readonly string[], now: Date) {
  if (!rows.length) return;
  await db
    .insertInto(one(table))
    .values(rows as Insertable<DB['dramas']>[])
    .onConflict((oc) =>
      oc
        .columns(['site_id', 'external_id'])
        .where('deleted_at', 'is', null)
        .doUpdateSet((eb) => ({ ...Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as 'excluded.name')])), updated_at: now })),
    )
    .execute();
}

/** A live site's name and platform (catalog entries must belong to one of the matching kind). */
export async function findLiveSite(db: Db, id: number) {
  return db.selectFrom('sites').select(['id', 'name', 'platform']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** The live entries of a site's catalog, external id → id. */
export async function catalogIdsOf(db: Db, table: CatalogTable, siteId: number) {
  const rows = await db.selectFrom(one(table)).select(['id', 'external_id']).where('site_id', '=', siteId).where('deleted_at', 'is', null).execute();
  return new Map(rows.map((r) => [r.external_id, r.id]));
}

/** Serialises a site's catalog imports, so two uploads of one catalog cannot interleave their upserts. */
export async function lockSiteCatalog(db: Db, siteId: number) {
  await sql`select pg_advisory_xact_lock(727003, ${siteId})`.execute(db);
}

/** A new webhook secret; the one it replaces stays valid 24 hours from `now` (API.md "Orders"). */
export async function rotateSiteSecret(db: Db, id: number, secretEnc: string, now: Date): Promise<void> {
  await db
    .updateTable('sites')
    .set((eb) => ({ webhook_secret_prev_enc: eb.ref('webhook_secret_enc'), webhook_secret_rotated_at: now, webhook_secret_enc: secretEnc, updated_at: now }))
    .where('id', '=', id)
    .execute();
}
