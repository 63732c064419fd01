import { idBodySchema, pageResultSchema } from '../envelope.ts';
import {
  adAccountPageResultSchema,
  adAccountSchema,
  assetPageResultSchema,
  assignUsersBodySchema,
  associatePagesBodySchema,
  associatePixelsBodySchema,
  connectTokenBodySchema,
  createDramaBodySchema,
  createProductBodySchema,
  createSiteBodySchema,
  dramaSchema,
  editAdAccountBodySchema,
  editDramaBodySchema,
  editProductBodySchema,
  editSiteBodySchema,
  exportAdAccountsBodySchema,
  exportDramasBodySchema,
  exportProductsBodySchema,
  importCatalogBodySchema,
  importCatalogResultSchema,
  listAdAccountsBodySchema,
  listDramasBodySchema,
  listPagesBodySchema,
  listPersonalAccountsBodySchema,
  listPixelsBodySchema,
  listProductsBodySchema,
  listSitesBodySchema,
  oauthStartResultSchema,
  pageSchema,
  personalAccountSchema,
  pixelSchema,
  productSchema,
  setAdAccountHostedBodySchema,
  setAdAccountPlatformBodySchema,
  setHostedBodySchema,
  setOwnerBodySchema,
  siteSchema,
  siteSecretSchema,
  syncBodySchema,
  taskRefSchema,
} from '../assets.ts';
import { AD_ADMIN_PATHS, AD_LOG_PATHS, AD_REPORT_PATHS } from '../ad-data.ts';
import { define } from './define.ts';
import { MATERIAL_PATHS } from './materials.ts';
import { noDataSchema, updatedResultSchema } from './sys.ts';

const PERSONAL = ['/auth/personage', '/operation/auth'] as const;
const ACCOUNTS = ['/auth/account'] as const;
const HOSTING = ['/auth/account', '/operation/account'] as const;
/** Ad data screens filter by ad account and by drama or product. */
const AD_DATA = [...AD_REPORT_PATHS, ...AD_LOG_PATHS, ...AD_ADMIN_PATHS] as const;
/** The ad account list also serves the materials and ad data screens (pickers and filters); data scope applies as everywhere. */
const AD_ACCOUNT_LIST = [...HOSTING, ...MATERIAL_PATHS, ...AD_DATA] as const;
const PAGES = ['/auth/homepage'] as const;
const PIXELS = ['/auth/pixel'] as const;
const SITE = ['/auth/site'] as const;
/** Catalog lists also serve the materials screens (pick a drama or product for a material) and the ad data filters. */
const CATALOG_READ = [...SITE, ...MATERIAL_PATHS, ...AD_DATA] as const;

/** Base64 of a 10 MB file plus the JSON around it (the contract allows 14M characters). */
export const IMPORT_BODY_LIMIT = 15 * 1024 * 1024;

/** Personal accounts (个号管理 / 个号授权), docs/api-assets.md. */
export const personalAccounts = {
  list: define({ path: '/personal-accounts/list', body: listPersonalAccountsBodySchema, answer: assetPageResultSchema(personalAccountSchema), allow: PERSONAL, tag: 'personal-accounts' }),
  connect_token: define({ path: '/personal-accounts/connect_token', body: connectTokenBodySchema, answer: personalAccountSchema, allow: PERSONAL, tag: 'personal-accounts' }),
  /** No body: the state binds the dialog to the caller, a cookie to the caller's browser. */
  oauth_start: define({ path: '/personal-accounts/oauth_start', answer: oauthStartResultSchema, allow: PERSONAL, tag: 'personal-accounts' }),
  check_token: define({ path: '/personal-accounts/check_token', body: idBodySchema, answer: personalAccountSchema, allow: PERSONAL, tag: 'personal-accounts' }),
  sync: define({ path: '/personal-accounts/sync', body: syncBodySchema, answer: taskRefSchema, allow: PERSONAL, tag: 'personal-accounts' }),
  set_owner: define({ path: '/personal-accounts/set_owner', body: setOwnerBodySchema, answer: updatedResultSchema, allow: PERSONAL, tag: 'personal-accounts' }),
  set_hosted: define({ path: '/personal-accounts/set_hosted', body: setHostedBodySchema, answer: updatedResultSchema, allow: PERSONAL, tag: 'personal-accounts' }),
  disconnect: define({ path: '/personal-accounts/disconnect', body: idBodySchema, answer: noDataSchema, allow: PERSONAL, tag: 'personal-accounts' }),
};

/** Ad accounts (广告账户, 广告托管), docs/api-assets.md. */
export const adAccounts = {
  list: define({ path: '/ad-accounts/list', body: listAdAccountsBodySchema, answer: adAccountPageResultSchema, allow: AD_ACCOUNT_LIST, tag: 'ad-accounts' }),
  export: define({ path: '/ad-accounts/export', body: exportAdAccountsBodySchema, answer: 'xlsx', allow: ACCOUNTS, tag: 'ad-accounts' }),
  assign_users: define({ path: '/ad-accounts/assign_users', body: assignUsersBodySchema, answer: updatedResultSchema, allow: ACCOUNTS, tag: 'ad-accounts' }),
  set_platform: define({ path: '/ad-accounts/set_platform', body: setAdAccountPlatformBodySchema, answer: updatedResultSchema, allow: ACCOUNTS, tag: 'ad-accounts' }),
  set_hosted: define({ path: '/ad-accounts/set_hosted', body: setAdAccountHostedBodySchema, answer: updatedResultSchema, allow: HOSTING, tag: 'ad-accounts' }),
  edit: define({ path: '/ad-accounts/edit', body: editAdAccountBodySchema, answer: adAccountSchema, allow: ACCOUNTS, tag: 'ad-accounts' }),
};

/** Pages (主页关联). */
export const pages = {
  list: define({ path: '/pages/list', body: listPagesBodySchema, answer: assetPageResultSchema(pageSchema), allow: PAGES, tag: 'pages' }),
  associate: define({ path: '/pages/associate', body: associatePagesBodySchema, answer: updatedResultSchema, allow: PAGES, tag: 'pages' }),
};

/** Pixels (像素管理). */
export const pixels = {
  list: define({ path: '/pixels/list', body: listPixelsBodySchema, answer: assetPageResultSchema(pixelSchema), allow: PIXELS, tag: 'pixels' }),
  associate: define({ path: '/pixels/associate', body: associatePixelsBodySchema, answer: updatedResultSchema, allow: PIXELS, tag: 'pixels' }),
};

/** Sites (站点关联). */
export const sites = {
  list: define({ path: '/sites/list', body: listSitesBodySchema, answer: pageResultSchema(siteSchema), allow: SITE, tag: 'sites' }),
  /** One site with its order webhook's health and last deliveries. */
  detail: define({ path: '/sites/detail', body: idBodySchema, answer: siteSchema, allow: SITE, tag: 'sites' }),
  create: define({ path: '/sites/create', body: createSiteBodySchema, answer: siteSecretSchema, allow: SITE, tag: 'sites' }),
  edit: define({ path: '/sites/edit', body: editSiteBodySchema, answer: siteSchema, allow: SITE, tag: 'sites' }),
  delete: define({ path: '/sites/delete', body: idBodySchema, answer: noDataSchema, allow: SITE, tag: 'sites' }),
  rotate_secret: define({ path: '/sites/rotate_secret', body: idBodySchema, answer: siteSecretSchema, allow: SITE, tag: 'sites' }),
};

/** A site's drama catalog. */
export const dramas = {
  list: define({ path: '/dramas/list', body: listDramasBodySchema, answer: pageResultSchema(dramaSchema), allow: CATALOG_READ, tag: 'dramas' }),
  export: define({ path: '/dramas/export', body: exportDramasBodySchema, answer: 'xlsx', allow: SITE, tag: 'dramas' }),
  create: define({ path: '/dramas/create', body: createDramaBodySchema, answer: dramaSchema, allow: SITE, tag: 'dramas' }),
  edit: define({ path: '/dramas/edit', body: editDramaBodySchema, answer: dramaSchema, allow: SITE, tag: 'dramas' }),
  delete: define({ path: '/dramas/delete', body: idBodySchema, answer: noDataSchema, allow: SITE, tag: 'dramas' }),
  import: define({ path: '/dramas/import', body: importCatalogBodySchema, answer: importCatalogResultSchema, allow: SITE, tag: 'dramas', bodyLimit: IMPORT_BODY_LIMIT }),
};

/** A site's product catalog. */
export const products = {
  list: define({ path: '/products/list', body: listProductsBodySchema, answer: pageResultSchema(productSchema), allow: CATALOG_READ, tag: 'products' }),
  export: define({ path: '/products/export', body: exportProductsBodySchema, answer: 'xlsx', allow: SITE, tag: 'products' }),
  create: define({ path: '/products/create', body: createProductBodySchema, answer: productSchema, allow: SITE, tag: 'products' }),
  edit: define({ path: '/products/edit', body: editProductBodySchema, answer: productSchema, allow: SITE, tag: 'products' }),
  delete: define({ path: '/products/delete', body: idBodySchema, answer: noDataSchema, allow: SITE, tag: 'products' }),
  import: define({ path: '/products/import', body: importCatalogBodySchema, answer: importCatalogResultSchema, allow: SITE, tag: 'products', bodyLimit: IMPORT_BODY_LIMIT }),
};
