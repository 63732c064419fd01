import {
  createDramaBodySchema,
  DRAMA_COLUMNS,
  PRODUCT_COLUMNS,
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
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ExportPage } from '../../lib/xlsx.ts';
import { isUniqueViolation } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { decodeBase64, readCatalogFile, splitTags, type CatalogRow, type CatalogSheet } from './catalog-file.ts';
import {
  allDramas,
  allProducts,
  catalogIdsOf,
  findDrama,
  findLiveSite,
  findProduct,
  insertCatalogItem,
  listDramas,
  listProducts,
  lockSiteCatalog,
  softDeleteCatalogItem,
  updateCatalogItem,
  upsertCatalogItems,
  type CatalogTable,
  type CatalogValues,
  type DramaFilters,
  type ProductFilters,
} from './sites.repository.ts';

type CatalogKind = 'drama' | 'product';
const TABLE: Record<CatalogKind, CatalogTable> = { drama: 'dramas', product: 'products' };

/** The fields of an edit body that it sets (undefined: keep), without the id. */
function changes<T extends { id: number }>(body: T): Partial<Omit<T, 'id'>> {
  const { id: _id, ...fields } = body;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Omit<T, 'id'>>;
}

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
    const site = await findLiveSite(db, siteId);
    if (!site) throw new AppError('SITE_NOT_FOUND', {}, 'site_id');
    if (kind === 'drama' && site.platform !== 'dj') throw new AppError('SITE_NOT_DRAMA', { site: site.name }, 'site_id');
    if (kind === 'product' && site.platform !== 'ec') throw new AppError('SITE_NOT_SHOP', { site: site.name }, 'site_id');
    return site;
  }

  const taken = (externalId: string | undefined) => new AppError('EXTERNAL_ID_TAKEN', { external_id: externalId }, 'external_id');

  async function load<T>(kind: CatalogKind, id: number, find: (db: Db, id: number) => Promise<T | undefined>): Promise<T> {
    const row = await find(db, id);
    if (!row) throw new AppError(kind === 'drama' ? 'DRAMA_NOT_FOUND' : 'PRODUCT_NOT_FOUND');
    return row;
  }

  /** Creates an entry (an external id taken on the site is a field error) and audits it. */
  async function createItem<T extends { id: number }>(ctx: RequestContext, kind: CatalogKind, values: CatalogValues, find: (db: Db, id: number) => Promise<T | undefined>): Promise<T> {
    await assertSite(values.site_id, kind);
    try {
      return await db.transaction().execute(async (trx) => {
        const id = await insertCatalogItem(trx, TABLE[kind], { ...values, created_at: clock.now(), updated_at: clock.now() });
        const after = (await find(trx, id))!;
        await writeAudit(trx, ctx, { action: `${kind}.create`, entity_type: kind, entity_id: id, after });
        return after;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(values.external_id);
      throw err;
    }
  }

  /** Changes the fields an edit body sets, moving the entry to another site of its kind if asked. */
  async function editItem<T extends { id: number; site: { id: number } }>(
    ctx: RequestContext,
    kind: CatalogKind,
    body: { id: number; site_id?: number; external_id?: string },
    find: (db: Db, id: number) => Promise<T | undefined>,
  ): Promise<T> {
    const before = await load(kind, body.id, find);
    if (body.site_id !== undefined && body.site_id !== before.site.id) await assertSite(body.site_id, kind);
    try {
      return await db.transaction().execute(async (trx) => {
        await updateCatalogItem(trx, TABLE[kind], body.id, { ...changes(body), updated_at: clock.now() });
        const after = (await find(trx, body.id))!;
        await writeAudit(trx, ctx, { action: `${kind}.edit`, entity_type: kind, entity_id: body.id, before, after });
        return after;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(body.external_id);
      throw err;
    }
  }

  /** Soft delete: publish schemes and orders that name the entry keep their history. */
  async function removeItem<T extends { id: number }>(ctx: RequestContext, kind: CatalogKind, id: number, find: (db: Db, id: number) => Promise<T | undefined>) {
    const before = await load(kind, id, find);
    await db.transaction().execute(async (trx) => {
      await softDeleteCatalogItem(trx, TABLE[kind], id, clock.now());
      await writeAudit(trx, ctx, { action: `${kind}.delete`, entity_type: kind, entity_id: id, before });
    });
  }

  async function importFile<T extends { external_id: string }>(
    ctx: RequestContext,
    body: ImportCatalogBody,
    kind: 'drama' | 'product',
    check: (sheet: CatalogSheet) => Checked<T>,
    write: (trx: Db, items: Checked<T>['items'], sheet: CatalogSheet) => Promise<void>,
  ): Promise<ImportCatalogResult> {
    await assertSite(body.site_id, kind);
    const table = TABLE[kind];
    const sheet = await readCatalogFile(body.filename, decodeBase64(body.content_base64), kind === 'drama' ? DRAMA_COLUMNS : PRODUCT_COLUMNS);
    const { items, errors } = check(sheet);
    // All or nothing: one bad row and nothing is written, so a fixed file can simply be sent again.
    if (errors.length) return { created: 0, updated: 0, errors };
    const count = (existing: Map<string, number>) => {
      const updated = items.filter((i) => existing.has(i.input.external_id)).length;
      return { created: items.length - updated, updated };
    };
    if (body.dry_run) return { ...count(await catalogIdsOf(db, table, body.site_id)), errors: [] };
    return db.transaction().execute(async (trx) => {
      await lockSiteCatalog(trx, body.site_id);
      const result = count(await catalogIdsOf(trx, table, body.site_id));
      for (let i = 0; i < items.length; i += CHUNK) await write(trx, items.slice(i, i + CHUNK), sheet);
      await writeAudit(trx, ctx, { action: `${kind}.import`, entity_type: 'site', entity_id: body.site_id, after: { filename: body.filename, rows: items.length, ...result } });
      return { ...result, errors: [] };
    });
  }

  return {
    // ---- dramas -------------------------------------------------------------------------------
    listDramas: (body: ListDramasBody) => listDramas(db, body),
    exportDramas: (filters: DramaFilters, page: ExportPage) => allDramas(db, filters, page),

    createDrama: (ctx: RequestContext, body: CreateDramaBody): Promise<Drama> =>
      createItem(ctx, 'drama', { ...body, cover_url: body.cover_url ?? null, tags: body.tags ?? [], test_status: body.test_status ?? 'untested' }, findDrama),
    editDrama: (ctx: RequestContext, body: EditDramaBody): Promise<Drama> => editItem(ctx, 'drama', body, findDrama),
    removeDrama: (ctx: RequestContext, id: number) => removeItem(ctx, 'drama', id, findDrama),

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
          const optionalColumns = [...(sheet.columns.has('cover_url') ? ['cover_url'] : []), ...(sheet.columns.has('tags') ? ['tags'] : [])];
          // Rows that name a test status set it; rows that leave it blank keep the stored one.
          for (const withStatus of [true, false]) {
            const group = items.filter((i) => i.hasStatus === withStatus);
            const rows = group.map(({ input }) => ({ ...input, site_id: body.site_id, cover_url: input.cover_url ?? null, tags: input.tags ?? [], test_status: input.test_status ?? 'untested', created_at: now, updated_at: now }));
            await upsertCatalogItems(trx, 'dramas', rows, ['name', 'language', 'episode_count', ...optionalColumns, ...(withStatus ? ['test_status'] : [])], now);
          }
        },
      );
    },

    // ---- products -----------------------------------------------------------------------------
    listProducts: (body: ListProductsBody) => listProducts(db, body),
    exportProducts: (filters: ProductFilters, page: ExportPage) => allProducts(db, filters, page),

    createProduct: (ctx: RequestContext, body: CreateProductBody): Promise<Product> =>
      createItem(ctx, 'product', { ...body, cover_url: body.cover_url ?? null, tags: body.tags ?? [] }, findProduct),
    editProduct: (ctx: RequestContext, body: EditProductBody): Promise<Product> => editItem(ctx, 'product', body, findProduct),
    removeProduct: (ctx: RequestContext, id: number) => removeItem(ctx, 'product', id, findProduct),

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
          const optionalColumns = [...(sheet.columns.has('cover_url') ? ['cover_url'] : []), ...(sheet.columns.has('tags') ? ['tags'] : [])];
          const rows = items.map(({ input }) => ({ ...input, site_id: body.site_id, cover_url: input.cover_url ?? null, tags: input.tags ?? [], created_at: now, updated_at: now }));
          await upsertCatalogItems(trx, 'products', rows, ['name', 'url', 'price', 'currency', ...optionalColumns], now);
        },
      );
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
