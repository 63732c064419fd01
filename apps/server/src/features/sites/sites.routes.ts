import { DRAMA_COLUMNS, endpoints, PRODUCT_COLUMNS, type CatalogColumn, type Drama, type Lang, type Product } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import { pickColumns, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import { TEST_STATUS_LABELS, type CatalogService } from './catalog.service.ts';
import type { SiteService } from './sites.service.ts';

const { sites: siteApi, dramas: dramaApi, products: productApi } = endpoints;

/**
 * Export columns are the import columns (headers in the caller's language; both are accepted on
 * import), so an export can be edited and imported again. The site name follows as an extra
 * column the import ignores. Each file column belongs to a list column (`listKey`: the web table's
 * key) so an export of the shown columns holds those alone; `created_at` is written only then.
 */
function catalogColumns<T extends { site: { name: string }; created_at: string }>(
  lang: Lang,
  columns: readonly CatalogColumn[],
  listKey: Record<string, string>,
  value: (row: T, key: string) => string | number | null,
): XlsxColumn<T>[] {
  const widths: Record<string, number> = { external_id: 14, name: 28, cover_url: 40, url: 40, tags: 24 };
  return [
    ...columns.map((c) => ({ key: listKey[c.key] ?? c.key, header: lang === 'zh' ? c.zh : c.key, width: widths[c.key] ?? 12, value: (row: T) => value(row, c.key) })),
    { header: lang === 'zh' ? '站点' : 'site', width: 20, value: (row: T) => row.site.name },
    { key: 'created_at', onRequest: true, header: lang === 'zh' ? '创建时间' : 'created_at', width: 20, value: (row: T) => row.created_at.replace('T', ' ').slice(0, 19) },
  ];
}
/** The table shows the id under the name, the cover as a picture and the currency beside the price. */
const LIST_KEYS: Record<string, string> = { external_id: 'name', cover_url: 'cover', currency: 'price' };

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
export function siteRoutes(sites: SiteService, catalog: CatalogService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, siteApi.list, async (req) => sites.list(req.body));
    endpoint(app, siteApi.detail, async (req) => sites.detail(req.body.id));
    endpoint(app, siteApi.create, async (req) => sites.create(req.ctx(), req.body));
    endpoint(app, siteApi.edit, async (req) => sites.edit(req.ctx(), req.body));
    endpoint(app, siteApi.delete, async (req) => {
      await sites.remove(req.ctx(), req.body.id);
      return null;
    });
    endpoint(app, siteApi.rotate_secret, async (req) => sites.rotateSecret(req.ctx(), req.body.id));

    endpoint(app, dramaApi.list, async (req) => catalog.listDramas(req.body));
    endpoint(app, dramaApi.export, async (req, reply) => {
      const zh = req.lang === 'zh';
      return sendXlsx(reply, zh ? '剧集.xlsx' : 'dramas.xlsx', zh ? '剧集' : 'Dramas', pickColumns(catalogColumns(req.lang, DRAMA_COLUMNS, LIST_KEYS, dramaCell(req.lang)), req.body.columns), (page) =>
        catalog.exportDramas(req.body, page),
      );
    });
    endpoint(app, dramaApi.create, async (req) => catalog.createDrama(req.ctx(), req.body));
    endpoint(app, dramaApi.edit, async (req) => catalog.editDrama(req.ctx(), req.body));
    endpoint(app, dramaApi.delete, async (req) => {
      await catalog.removeDrama(req.ctx(), req.body.id);
      return null;
    });
    endpoint(app, dramaApi.import, async (req) => catalog.importDramas(req.ctx(), req.body));

    endpoint(app, productApi.list, async (req) => catalog.listProducts(req.body));
    endpoint(app, productApi.export, async (req, reply) => {
      const zh = req.lang === 'zh';
      return sendXlsx(reply, zh ? '商品.xlsx' : 'products.xlsx', zh ? '商品' : 'Products', pickColumns(catalogColumns(req.lang, PRODUCT_COLUMNS, LIST_KEYS, productCell), req.body.columns), (page) =>
        catalog.exportProducts(req.body, page),
      );
    });
    endpoint(app, productApi.create, async (req) => catalog.createProduct(req.ctx(), req.body));
    endpoint(app, productApi.edit, async (req) => catalog.editProduct(req.ctx(), req.body));
    endpoint(app, productApi.delete, async (req) => {
      await catalog.removeProduct(req.ctx(), req.body.id);
      return null;
    });
    endpoint(app, productApi.import, async (req) => catalog.importProducts(req.ctx(), req.body));
  };
}
