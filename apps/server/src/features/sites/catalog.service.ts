import {
  createDramaBodySchema,
  createProductBodySchema,
  dramaTestStatusSchema,
  formatMessage,
  issueMessage,
  type CreateDramaBody,
  type CreateProductBody,
  type Drama,
  type DramaTestStatus,
  type EditDramaBody,
  type EditProductBody,
  type ImportCatalogBody,
  type ImportCatalogResult,
  type Lang,
  type ListDramasBody,
  type ListProductsBody,
  type Product,
} from '@ads/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ExportPage } from '../../lib/xlsx.ts';
import { isUniqueViolation } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { decodeBase64, DRAMA_COLUMNS, PRODUCT_COLUMNS, readCatalogFile, splitTags, type CatalogRow, type CatalogSheet } from './catalog-file.ts';
import { allDramas, allProducts, findDrama, findProduct, listDramas, listProducts, type DramaFilters, type ProductFilters } from './sites.repository.ts';

/** Test statuses as people write them in a sheet: the codes, and the Chinese labels the export uses. */
export const TEST_STATUS_LABELS: Record<DramaTestStatus, { zh: string; en: string; aliases: string[] }> = {
  untested: { zh: '未测试', en: 'untested', aliases: ['待测试', '未测'] },
  testing: { zh: '测试中', en: 'testing', aliases: ['在测'] },
  passed: { zh: '已通过', en: 'passed', aliases: ['通过', '测试通过', 'pass'] },
  failed: { zh: '未通过', en: 'failed', aliases: ['失败', '不通过', '测试失败', 'fail'] },
};

function parseTestStatus(text: string): DramaTestStatus | undefined {
  const t = text.trim().toLowerCase();
  for (const status of dramaTestStatusSchema.options) {
    const l = TEST_STATUS_LABELS[status];
    if (t === status || t === l.zh || l.aliases.includes(t)) return status;
  }
  return undefined;
}

/** A sheet number: plain decimals, optionally with thousands separators ("1,299.00"). */
function parseNumber(text: string): number | undefined {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) return Number(t.replace(/,/g, ''));
  return undefined;
}

/** The rows to write, with their spreadsheet row numbers, or the errors that stop the import. */
interface Checked<T> {
  items: { row: number; input: T; hasStatus: boolean }[];
  errors: ImportCatalogResult['errors'];
}

/**
 * Turns each row into a create body and checks it with the contract schema; every problem is
 * reported with its row and column. An external_id repeated in the file is an error (which row
 * should win is not ours to guess).
 */
function checkRows<T extends { external_id: string }>(
  sheet: CatalogSheet,
  lang: Lang,
  schema: z.ZodType<T>,
  build: (r: CatalogRow, fail: (field: string, message: string) => void) => Record<string, unknown>,
): Checked<T> {
  const errors: ImportCatalogResult['errors'] = [];
  const items: Checked<T>['items'] = [];
  const seen = new Map<string, number>();
  for (const r of sheet.rows) {
    const rowErrors: ImportCatalogResult['errors'] = [];
    const failed = new Set<string>();
    const input = build(r, (field, message) => {
      failed.add(field);
      rowErrors.push({ row: r.row, field, message });
    });
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'row');
        // A value we already could not convert is reported once, by the conversion.
        if (failed.has(field)) continue;
        rowErrors.push({ row: r.row, field, message: issueMessage(issue as Parameters<typeof issueMessage>[0], lang) });
      }
    }
    const externalId = typeof input.external_id === 'string' ? input.external_id.trim() : '';
    if (externalId) {
      const first = seen.get(externalId);
      if (first !== undefined) rowErrors.push({ row: r.row, field: 'external_id', message: formatMessage('CATALOG_DUPLICATE_ROW', lang, { external_id: externalId, row: first }) });
      else seen.set(externalId, r.row);
    }
    if (rowErrors.length || !parsed.success) errors.push(...rowErrors);
    else items.push({ row: r.row, input: parsed.data, hasStatus: Boolean(r.values.test_status) });
  }
  return { items, errors };
}

/** Optional columns absent from the header keep what is stored; present but empty clears them. */
function optional(sheet: CatalogSheet, r: CatalogRow, key: string, convert: (text: string) => unknown) {
  if (!sheet.columns.has(key)) return undefined;
  return convert(r.values[key] ?? '');
}

const CHUNK = 500;

export interface CatalogServiceDeps {
  db: Db;
  clock: Clock;
}

/** Drama (剧集) and product catalogs of sites, with import from and export to spreadsheets. */
export function createCatalogService({ db, clock }: CatalogServiceDeps) {
  /** The site an entry belongs to: it must exist, and dramas go to dj sites, products to ec ones. */
  async function assertSite(siteId: number, kind: 'drama' | 'product') {
    const site = await db.selectFrom('sites').select(['id', 'name', 'platform']).where('id', '=', siteId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!site) throw new AppError('SITE_NOT_FOUND', {}, 'site_id');
    if (kind === 'drama' && site.platform !== 'dj') throw new AppError('SITE_NOT_DRAMA', { site: site.name }, 'site_id');
    if (kind === 'product' && site.platform !== 'ec') throw new AppError('SITE_NOT_SHOP', { site: site.name }, 'site_id');
    return site;
  }

  const taken = (externalId: string | undefined) => new AppError('EXTERNAL_ID_TAKEN', { external_id: externalId }, 'external_id');

  async function loadDrama(id: number) {
    const drama = await findDrama(db, id);
    if (!drama) throw new AppError('DRAMA_NOT_FOUND');
    return drama;
  }
  async function loadProduct(id: number) {
    const product = await findProduct(db, id);
    if (!product) throw new AppError('PRODUCT_NOT_FOUND');
    return product;
  }

  /** external_id → id of the site's current entries (to tell creates from updates). */
  async function existingIds(trx: Db, table: 'dramas' | 'products', siteId: number) {
    const rows = await trx.selectFrom(table).select(['id', 'external_id']).where('site_id', '=', siteId).where('deleted_at', 'is', null).execute();
    return new Map(rows.map((r) => [r.external_id, r.id]));
  }

  /** Imports are serialised per site, so two uploads of one catalog cannot interleave their upserts. */
  const lockSite = (trx: Db, siteId: number) => sql`select pg_advisory_xact_lock(727003, ${siteId})`.execute(trx);

  async function importFile<T extends { external_id: string }>(
    ctx: RequestContext,
    body: ImportCatalogBody,
    kind: 'drama' | 'product',
    check: (sheet: CatalogSheet) => Checked<T>,
    write: (trx: Db, items: Checked<T>['items'], sheet: CatalogSheet) => Promise<void>,
  ): Promise<ImportCatalogResult> {
    await assertSite(body.site_id, kind);
    const table = kind === 'drama' ? 'dramas' : 'products';
    const sheet = await readCatalogFile(body.filename, decodeBase64(body.content_base64), kind === 'drama' ? DRAMA_COLUMNS : PRODUCT_COLUMNS);
    const { items, errors } = check(sheet);
    // All or nothing: one bad row and nothing is written, so a fixed file can simply be sent again.
    if (errors.length) return { created: 0, updated: 0, errors };
    const count = (existing: Map<string, number>) => {
      const updated = items.filter((i) => existing.has(i.input.external_id)).length;
      return { created: items.length - updated, updated };
    };
    if (body.dry_run) return { ...count(await existingIds(db, table, body.site_id)), errors: [] };
    return db.transaction().execute(async (trx) => {
      await lockSite(trx, body.site_id);
      const result = count(await existingIds(trx, table, body.site_id));
      for (let i = 0; i < items.length; i += CHUNK) await write(trx, items.slice(i, i + CHUNK), sheet);
      await writeAudit(trx, ctx, { action: `${kind}.import`, entity_type: 'site', entity_id: body.site_id, after: { filename: body.filename, rows: items.length, ...result } });
      return { ...result, errors: [] };
    });
  }

  return {
    // ---- dramas -------------------------------------------------------------------------------
    listDramas: (body: ListDramasBody) => listDramas(db, body),
    exportDramas: (filters: DramaFilters, page: ExportPage) => allDramas(db, filters, page),

    async createDrama(ctx: RequestContext, body: CreateDramaBody): Promise<Drama> {
      await assertSite(body.site_id, 'drama');
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('dramas')
            .values({
              site_id: body.site_id,
              external_id: body.external_id,
              name: body.name,
              language: body.language,
              episode_count: body.episode_count,
              cover_url: body.cover_url ?? null,
              tags: body.tags ?? [],
              test_status: body.test_status ?? 'untested',
              created_at: clock.now(),
              updated_at: clock.now(),
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const after = (await findDrama(trx, row.id))!;
          await writeAudit(trx, ctx, { action: 'drama.create', entity_type: 'drama', entity_id: row.id, after });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.external_id);
        throw err;
      }
    },

    async editDrama(ctx: RequestContext, body: EditDramaBody): Promise<Drama> {
      const before = await loadDrama(body.id);
      if (body.site_id !== undefined && body.site_id !== before.site.id) await assertSite(body.site_id, 'drama');
      try {
        return await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('dramas')
            .set({
              ...(body.site_id !== undefined && { site_id: body.site_id }),
              ...(body.external_id !== undefined && { external_id: body.external_id }),
              ...(body.name !== undefined && { name: body.name }),
              ...(body.language !== undefined && { language: body.language }),
              ...(body.episode_count !== undefined && { episode_count: body.episode_count }),
              ...(body.cover_url !== undefined && { cover_url: body.cover_url }),
              ...(body.tags !== undefined && { tags: body.tags }),
              ...(body.test_status !== undefined && { test_status: body.test_status }),
              updated_at: clock.now(),
            })
            .where('id', '=', body.id)
            .execute();
          const after = (await findDrama(trx, body.id))!;
          await writeAudit(trx, ctx, { action: 'drama.edit', entity_type: 'drama', entity_id: body.id, before, after });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.external_id);
        throw err;
      }
    },

    /** Soft delete: publish schemes and orders that name the drama keep their history. */
    async removeDrama(ctx: RequestContext, id: number) {
      const before = await loadDrama(id);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('dramas').set({ deleted_at: clock.now(), updated_at: clock.now() }).where('id', '=', id).execute();
        await writeAudit(trx, ctx, { action: 'drama.delete', entity_type: 'drama', entity_id: id, before });
      });
    },

    importDramas(ctx: RequestContext, body: ImportCatalogBody) {
      return importFile<CreateDramaBody>(
        ctx,
        body,
        'drama',
        (sheet) =>
          checkRows(sheet, ctx.lang, createDramaBodySchema, (r, fail) => {
            const v = r.values;
            const episodes = v.episode_count ? parseNumber(v.episode_count) : undefined;
            if (v.episode_count && episodes === undefined) fail('episode_count', formatMessage('CATALOG_NOT_A_NUMBER', ctx.lang, { value: v.episode_count.slice(0, 40) }));
            let status: DramaTestStatus | undefined;
            if (v.test_status) {
              status = parseTestStatus(v.test_status);
              if (!status) {
                const values = dramaTestStatusSchema.options.map((s) => `${s}/${TEST_STATUS_LABELS[s].zh}`).join(', ');
                fail('test_status', formatMessage('CATALOG_UNKNOWN_STATUS', ctx.lang, { value: v.test_status.slice(0, 40), values }));
              }
            }
            return {
              site_id: body.site_id,
              external_id: v.external_id || undefined,
              name: v.name || undefined,
              language: v.language || undefined,
              episode_count: episodes,
              cover_url: optional(sheet, r, 'cover_url', (t) => t || null),
              tags: optional(sheet, r, 'tags', splitTags),
              test_status: status,
            };
          }),
        async (trx, items, sheet) => {
          const now = clock.now();
          const hasCover = sheet.columns.has('cover_url');
          const hasTags = sheet.columns.has('tags');
          // Rows that name a test status set it; rows that leave it blank keep the stored one.
          for (const withStatus of [true, false]) {
            const group = items.filter((i) => i.hasStatus === withStatus);
            if (!group.length) continue;
            await trx
              .insertInto('dramas')
              .values(
                group.map(({ input }) => ({
                  site_id: body.site_id,
                  external_id: input.external_id,
                  name: input.name,
                  language: input.language,
                  episode_count: input.episode_count,
                  cover_url: input.cover_url ?? null,
                  tags: input.tags ?? [],
                  test_status: input.test_status ?? 'untested',
                  created_at: now,
                  updated_at: now,
                })),
              )
              .onConflict((oc) =>
                oc
                  .columns(['site_id', 'external_id'])
                  .where('deleted_at', 'is', null)
                  .doUpdateSet((eb) => ({
                    name: eb.ref('excluded.name'),
                    language: eb.ref('excluded.language'),
                    episode_count: eb.ref('excluded.episode_count'),
                    ...(hasCover && { cover_url: eb.ref('excluded.cover_url') }),
                    ...(hasTags && { tags: eb.ref('excluded.tags') }),
                    ...(withStatus && { test_status: eb.ref('excluded.test_status') }),
                    updated_at: now,
                  })),
              )
              .execute();
          }
        },
      );
    },

    // ---- products -----------------------------------------------------------------------------
    listProducts: (body: ListProductsBody) => listProducts(db, body),
    exportProducts: (filters: ProductFilters, page: ExportPage) => allProducts(db, filters, page),

    async createProduct(ctx: RequestContext, body: CreateProductBody): Promise<Product> {
      await assertSite(body.site_id, 'product');
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('products')
            .values({
              site_id: body.site_id,
              external_id: body.external_id,
              name: body.name,
              url: body.url,
              price: body.price,
              currency: body.currency,
              cover_url: body.cover_url ?? null,
              tags: body.tags ?? [],
              created_at: clock.now(),
              updated_at: clock.now(),
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const after = (await findProduct(trx, row.id))!;
          await writeAudit(trx, ctx, { action: 'product.create', entity_type: 'product', entity_id: row.id, after });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.external_id);
        throw err;
      }
    },

    async editProduct(ctx: RequestContext, body: EditProductBody): Promise<Product> {
      const before = await loadProduct(body.id);
      if (body.site_id !== undefined && body.site_id !== before.site.id) await assertSite(body.site_id, 'product');
      try {
        return await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('products')
            .set({
              ...(body.site_id !== undefined && { site_id: body.site_id }),
              ...(body.external_id !== undefined && { external_id: body.external_id }),
              ...(body.name !== undefined && { name: body.name }),
              ...(body.url !== undefined && { url: body.url }),
              ...(body.price !== undefined && { price: body.price }),
              ...(body.currency !== undefined && { currency: body.currency }),
              ...(body.cover_url !== undefined && { cover_url: body.cover_url }),
              ...(body.tags !== undefined && { tags: body.tags }),
              updated_at: clock.now(),
            })
            .where('id', '=', body.id)
            .execute();
          const after = (await findProduct(trx, body.id))!;
          await writeAudit(trx, ctx, { action: 'product.edit', entity_type: 'product', entity_id: body.id, before, after });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw taken(body.external_id);
        throw err;
      }
    },

    async removeProduct(ctx: RequestContext, id: number) {
      const before = await loadProduct(id);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('products').set({ deleted_at: clock.now(), updated_at: clock.now() }).where('id', '=', id).execute();
        await writeAudit(trx, ctx, { action: 'product.delete', entity_type: 'product', entity_id: id, before });
      });
    },

    importProducts(ctx: RequestContext, body: ImportCatalogBody) {
      return importFile<CreateProductBody>(
        ctx,
        body,
        'product',
        (sheet) =>
          checkRows(sheet, ctx.lang, createProductBodySchema, (r, fail) => {
            const v = r.values;
            const price = v.price ? parseNumber(v.price) : undefined;
            if (v.price && price === undefined) fail('price', formatMessage('CATALOG_NOT_A_NUMBER', ctx.lang, { value: v.price.slice(0, 40) }));
            return {
              site_id: body.site_id,
              external_id: v.external_id || undefined,
              name: v.name || undefined,
              url: v.url || undefined,
              price,
              currency: v.currency || undefined,
              cover_url: optional(sheet, r, 'cover_url', (t) => t || null),
              tags: optional(sheet, r, 'tags', splitTags),
            };
          }),
        async (trx, items, sheet) => {
          const now = clock.now();
          const hasCover = sheet.columns.has('cover_url');
          const hasTags = sheet.columns.has('tags');
          await trx
            .insertInto('products')
            .values(
              items.map(({ input }) => ({
                site_id: body.site_id,
                external_id: input.external_id,
                name: input.name,
                url: input.url,
                price: input.price,
                currency: input.currency,
                cover_url: input.cover_url ?? null,
                tags: input.tags ?? [],
                created_at: now,
                updated_at: now,
              })),
            )
            .onConflict((oc) =>
              oc
                .columns(['site_id', 'external_id'])
                .where('deleted_at', 'is', null)
                .doUpdateSet((eb) => ({
                  name: eb.ref('excluded.name'),
                  url: eb.ref('excluded.url'),
                  price: eb.ref('excluded.price'),
                  currency: eb.ref('excluded.currency'),
                  ...(hasCover && { cover_url: eb.ref('excluded.cover_url') }),
                  ...(hasTags && { tags: eb.ref('excluded.tags') }),
                  updated_at: now,
                })),
            )
            .execute();
        },
      );
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
