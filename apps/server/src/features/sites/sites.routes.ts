import {
  createDramaBodySchema,
  createProductBodySchema,
  createSiteBodySchema,
  dramaSchema,
  editDramaBodySchema,
  editProductBodySchema,
  editSiteBodySchema,
  envelope,
  idBodySchema,
  importCatalogBodySchema,
  importCatalogResultSchema,
  listDramasBodySchema,
  listProductsBodySchema,
  listSitesBodySchema,
  pageResultSchema,
  productSchema,
  siteSchema,
  siteSecretSchema,
  type Drama,
  type Lang,
  type Product,
} from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply.ts';
import { sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import { DRAMA_COLUMNS, PRODUCT_COLUMNS, type CatalogColumn } from './catalog-file.ts';
import { TEST_STATUS_LABELS, type CatalogService } from './catalog.service.ts';
import type { SiteService } from './sites.service.ts';
import { MATERIAL_PATHS } from '../materials/materials.service.ts';

const SITE = ['/auth/site'] as const;
/** Catalog lists also serve the materials screens (pick a drama or product for a material). */
const CATALOG_READ = [...SITE, ...MATERIAL_PATHS];

/** Base64 of a 10 MB file plus the JSON around it (the contract allows 14M characters). */
export const IMPORT_BODY_LIMIT = 15 * 1024 * 1024;

/**
 * Export columns are the import columns (headers in the caller's language; both are accepted on
 * import), so an export can be edited and imported again. The site name follows as an extra
 * column the import ignores.
 */
function catalogColumns<T extends { site: { name: string } }>(lang: Lang, columns: CatalogColumn[], value: (row: T, key: string) => string | number | null): XlsxColumn<T>[] {
  const widths: Record<string, number> = { external_id: 14, name: 28, cover_url: 40, url: 40, tags: 24 };
  return [
    ...columns.map((c) => ({ header: lang === 'zh' ? c.zh : c.key, width: widths[c.key] ?? 12, value: (row: T) => value(row, c.key) })),
    { header: lang === 'zh' ? '站点' : 'site', width: 20, value: (row: T) => row.site.name },
  ];
}

const dramaCell = (lang: Lang) => (d: Drama, key: string) => {
  if (key === 'tags') return d.tags.join(',');
  if (key === 'test_status') return TEST_STATUS_LABELS[d.test_status][lang];
  const v = d[key as keyof Drama];
  return typeof v === 'string' || typeof v === 'number' ? v : null;
};
const productCell = (p: Product, key: string) => {
  if (key === 'tags') return p.tags.join(',');
  const v = p[key as keyof Product];
  return typeof v === 'string' || typeof v === 'number' ? v : null;
};

/** Sites (站点关联) with their drama and product catalogs (docs/api-assets.md). */
export function siteRoutes(sites: SiteService, catalog: CatalogService): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { paths: SITE };

    // ---- sites --------------------------------------------------------------------------------
    const sitesTags = ['sites'];
    app.post('/sites/list', { schema: { tags: sitesTags, body: listSitesBodySchema, response: { 200: envelope(pageResultSchema(siteSchema)) } }, config }, async (req) =>
      ok(await sites.list(req.body)),
    );
    app.post('/sites/detail', { schema: { tags: sitesTags, body: idBodySchema, response: { 200: envelope(siteSchema) } }, config }, async (req) => ok(await sites.detail(req.body.id)));
    app.post('/sites/create', { schema: { tags: sitesTags, body: createSiteBodySchema, response: { 200: envelope(siteSecretSchema) } }, config }, async (req) =>
      ok(await sites.create(req.ctx(), req.body)),
    );
    app.post('/sites/edit', { schema: { tags: sitesTags, body: editSiteBodySchema, response: { 200: envelope(siteSchema) } }, config }, async (req) =>
      ok(await sites.edit(req.ctx(), req.body)),
    );
    app.post('/sites/delete', { schema: { tags: sitesTags, body: idBodySchema }, config }, async (req) => {
      await sites.remove(req.ctx(), req.body.id);
      return ok(null);
    });
    app.post('/sites/rotate_secret', { schema: { tags: sitesTags, body: idBodySchema, response: { 200: envelope(siteSecretSchema) } }, config }, async (req) =>
      ok(await sites.rotateSecret(req.ctx(), req.body.id)),
    );

    // ---- dramas -------------------------------------------------------------------------------
    const dramaTags = ['dramas'];
    app.post('/dramas/list', { schema: { tags: dramaTags, body: listDramasBodySchema, response: { 200: envelope(pageResultSchema(dramaSchema)) } }, config: { paths: CATALOG_READ } }, async (req) =>
      ok(await catalog.listDramas(req.body)),
    );
    app.post('/dramas/export', { schema: { tags: dramaTags, body: listDramasBodySchema }, config }, async (req, reply) => {
      const zh = req.lang === 'zh';
      return sendXlsx(reply, zh ? '剧集.xlsx' : 'dramas.xlsx', zh ? '剧集' : 'Dramas', catalogColumns(req.lang, DRAMA_COLUMNS, dramaCell(req.lang)), (page) =>
        catalog.exportDramas(req.body, page),
      );
    });
    app.post('/dramas/create', { schema: { tags: dramaTags, body: createDramaBodySchema, response: { 200: envelope(dramaSchema) } }, config }, async (req) =>
      ok(await catalog.createDrama(req.ctx(), req.body)),
    );
    app.post('/dramas/edit', { schema: { tags: dramaTags, body: editDramaBodySchema, response: { 200: envelope(dramaSchema) } }, config }, async (req) =>
      ok(await catalog.editDrama(req.ctx(), req.body)),
    );
    app.post('/dramas/delete', { schema: { tags: dramaTags, body: idBodySchema }, config }, async (req) => {
      await catalog.removeDrama(req.ctx(), req.body.id);
      return ok(null);
    });
    app.post(
      '/dramas/import',
      { schema: { tags: dramaTags, body: importCatalogBodySchema, response: { 200: envelope(importCatalogResultSchema) } }, config, bodyLimit: IMPORT_BODY_LIMIT },
      async (req) => ok(await catalog.importDramas(req.ctx(), req.body)),
    );

    // ---- products -----------------------------------------------------------------------------
    const productTags = ['products'];
    app.post('/products/list', { schema: { tags: productTags, body: listProductsBodySchema, response: { 200: envelope(pageResultSchema(productSchema)) } }, config: { paths: CATALOG_READ } }, async (req) =>
      ok(await catalog.listProducts(req.body)),
    );
    app.post('/products/export', { schema: { tags: productTags, body: listProductsBodySchema }, config }, async (req, reply) => {
      const zh = req.lang === 'zh';
      return sendXlsx(reply, zh ? '商品.xlsx' : 'products.xlsx', zh ? '商品' : 'Products', catalogColumns(req.lang, PRODUCT_COLUMNS, productCell), (page) =>
        catalog.exportProducts(req.body, page),
      );
    });
    app.post('/products/create', { schema: { tags: productTags, body: createProductBodySchema, response: { 200: envelope(productSchema) } }, config }, async (req) =>
      ok(await catalog.createProduct(req.ctx(), req.body)),
    );
    app.post('/products/edit', { schema: { tags: productTags, body: editProductBodySchema, response: { 200: envelope(productSchema) } }, config }, async (req) =>
      ok(await catalog.editProduct(req.ctx(), req.body)),
    );
    app.post('/products/delete', { schema: { tags: productTags, body: idBodySchema }, config }, async (req) => {
      await catalog.removeProduct(req.ctx(), req.body.id);
      return ok(null);
    });
    app.post(
      '/products/import',
      { schema: { tags: productTags, body: importCatalogBodySchema, response: { 200: envelope(importCatalogResultSchema) } }, config, bodyLimit: IMPORT_BODY_LIMIT },
      async (req) => ok(await catalog.importProducts(req.ctx(), req.body)),
    );
  };
}
