import {
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
  idBodySchema,
  importCatalogBodySchema,
  importCatalogResultSchema,
  listAdAccountsBodySchema,
  listDramasBodySchema,
  listPagesBodySchema,
  listPersonalAccountsBodySchema,
  listPixelsBodySchema,
  listProductsBodySchema,
  listSitesBodySchema,
  listTasksRequestSchema,
  oauthStartResultSchema,
  pageResultSchema,
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
  taskIdBodySchema,
  taskSchema,
} from '@ads/contracts';
import { z } from 'zod';
import { xlsx } from './contract-helpers';

const updated = z.object({ updated: z.number().int() });
/** api-assets.md: `summary: {amount_spent_usd, balance_usd}` (not exported by the contracts). */
const adAccountsPage = assetPageResultSchema(adAccountSchema).extend({ summary: z.object({ amount_spent_usd: z.number(), balance_usd: z.number() }) });

/**
 * The calls of the 授权管理 and 托管管理 screens (docs/api-assets.md), with the contract schemas
 * of their bodies and answers. Edit/create answers the doc leaves open are taken as the entity.
 */
export const assetEndpoints = {
  '/personal-accounts/list': { request: listPersonalAccountsBodySchema, response: assetPageResultSchema(personalAccountSchema) },
  '/personal-accounts/connect_token': { request: connectTokenBodySchema, response: personalAccountSchema },
  '/personal-accounts/oauth_start': { request: z.object({}).strict(), response: oauthStartResultSchema },
  '/personal-accounts/check_token': { request: idBodySchema, response: personalAccountSchema },
  '/personal-accounts/sync': { request: syncBodySchema, response: taskRefSchema },
  '/personal-accounts/set_owner': { request: setOwnerBodySchema, response: updated },
  '/personal-accounts/set_hosted': { request: setHostedBodySchema, response: updated },
  '/personal-accounts/disconnect': { request: idBodySchema, response: z.null() },

  '/ad-accounts/list': { request: listAdAccountsBodySchema, response: adAccountsPage },
  '/ad-accounts/export': { request: listAdAccountsBodySchema, response: xlsx },
  '/ad-accounts/assign_users': { request: assignUsersBodySchema, response: updated },
  '/ad-accounts/set_platform': { request: setAdAccountPlatformBodySchema, response: updated },
  '/ad-accounts/set_hosted': { request: setAdAccountHostedBodySchema, response: updated },
  '/ad-accounts/edit': { request: editAdAccountBodySchema, response: adAccountSchema },

  '/pages/list': { request: listPagesBodySchema, response: assetPageResultSchema(pageSchema) },
  '/pages/associate': { request: associatePagesBodySchema, response: updated },
  '/pixels/list': { request: listPixelsBodySchema, response: assetPageResultSchema(pixelSchema) },
  '/pixels/associate': { request: associatePixelsBodySchema, response: updated },

  '/sites/list': { request: listSitesBodySchema, response: pageResultSchema(siteSchema) },
  '/sites/create': { request: createSiteBodySchema, response: siteSecretSchema },
  '/sites/edit': { request: editSiteBodySchema, response: siteSchema },
  '/sites/delete': { request: idBodySchema, response: z.null() },
  '/sites/rotate_secret': { request: idBodySchema, response: siteSecretSchema },

  '/dramas/list': { request: listDramasBodySchema, response: pageResultSchema(dramaSchema) },
  '/dramas/create': { request: createDramaBodySchema, response: dramaSchema },
  '/dramas/edit': { request: editDramaBodySchema, response: dramaSchema },
  '/dramas/delete': { request: idBodySchema, response: z.null() },
  '/dramas/import': { request: importCatalogBodySchema, response: importCatalogResultSchema },
  '/dramas/export': { request: listDramasBodySchema, response: xlsx },
  '/products/list': { request: listProductsBodySchema, response: pageResultSchema(productSchema) },
  '/products/create': { request: createProductBodySchema, response: productSchema },
  '/products/edit': { request: editProductBodySchema, response: productSchema },
  '/products/delete': { request: idBodySchema, response: z.null() },
  '/products/import': { request: importCatalogBodySchema, response: importCatalogResultSchema },
  '/products/export': { request: listProductsBodySchema, response: xlsx },

  // The server's body (jobs.ts): sort by the run times.
  '/tasks/list': { request: listTasksRequestSchema, response: pageResultSchema(taskSchema) },
  '/tasks/get': { request: taskIdBodySchema, response: taskSchema },
  '/tasks/cancel': { request: taskIdBodySchema, response: taskSchema },
} as const;
