import { adOperations, adOps, adReports, fxRates } from './ad-data.ts';
import { adAccounts, dramas, pages, personalAccounts, pixels, products, sites } from './assets.ts';
import type { AnyEndpoint } from './define.ts';
import { sysCron, tasks } from './jobs.ts';
import { hostingRules, notificationChannels, notifications, ruleHistory } from './hosting-rules.ts';
import { materials } from './materials.ts';
import { orders } from './orders.ts';
import { overview } from './overview.ts';
import { publish, publishSchemes, publishTemplates } from './publish.ts';
import { userPreferences } from './preferences.ts';
import { startTasks } from './start.ts';
import { pagePosts } from './posts.ts';
import { session, sysDepartments, sysMenus, sysRoles, sysUsers } from './sys.ts';

export * from './define.ts';
export { IMPORT_BODY_LIMIT } from './assets.ts';
export { MATERIAL_PATHS } from './materials.ts';
export { healthSchema, idResultSchema, noDataSchema, updatedResultSchema } from './sys.ts';

/**
 * Every JSON call of the API, by module: path, method, body, answer and allowed paths. The
 * server registers its routes from it, the web calls through it and its screen tests' mocks
 * answer through it, so none of them can drift from the others.
 */
export const endpoints = {
  session,
  sysUsers,
  sysDepartments,
  sysRoles,
  sysMenus,
  sysCron,
  tasks,
  personalAccounts,
  adAccounts,
  pages,
  pixels,
  sites,
  dramas,
  products,
  materials,
  overview,
  userPreferences,
  adReports,
  adOps,
  adOperations,
  fxRates,
  orders,
  publish,
  publishSchemes,
  publishTemplates,
  startTasks,
  pagePosts,
  hostingRules,
  ruleHistory,
  notificationChannels,
  notifications,
};

type Modules = typeof endpoints;
/** Every call of the table as one union. */
export type TableEndpoint = { [M in keyof Modules]: Modules[M][keyof Modules[M]] }[keyof Modules];
/** The calls keyed by their path (`'/sys-users/list'`). */
export type EndpointsByPath = { [E in TableEndpoint as E['path']]: E };

/** Every call of the table, in module order. */
export const allEndpoints: readonly TableEndpoint[] = Object.values(endpoints).flatMap((m) => Object.values(m) as TableEndpoint[]);

/** The calls keyed by path. */
export const endpointsByPath: EndpointsByPath = Object.fromEntries(allEndpoints.map((e: AnyEndpoint) => [e.path, e])) as EndpointsByPath;
