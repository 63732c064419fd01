import { importOrdersBodySchema, importOrdersResultSchema } from '../assets.ts';
import {
  exportOrderCohortBodySchema,
  exportOrderDailyBodySchema,
  exportOrdersBodySchema,
  listOrdersBodySchema,
  ORDER_DAILY_PATH,
  ORDER_LIST_PATH,
  orderCohortBodySchema,
  orderCohortResultSchema,
  orderDailyBodySchema,
  orderDailyResultSchema,
  orderDetailSchema,
  orderListResultSchema,
  orderOptionsBodySchema,
  orderOptionsResultSchema,
} from '../orders.ts';
import { idBodySchema } from '../envelope.ts';
import { IMPORT_BODY_LIMIT } from './assets.ts';
import { define } from './define.ts';

// Orders (API.md "Orders"). The webhook itself (`POST /api/orders/webhook/<site id>`) is not a
// call of this table: it is public, signed by the site, and answers real HTTP statuses. Orders
// are company data of the /admin area: the server also refuses callers other than the super admin.

const ORDER_LIST = [ORDER_LIST_PATH] as const;
const ORDER_DAILY = [ORDER_DAILY_PATH] as const;
const ORDER_SCREENS = [ORDER_LIST_PATH, ORDER_DAILY_PATH] as const;

export const orders = {
  /** Orders from a .csv / .xlsx whose headers are the webhook's field names: dry run, row errors, idempotent by order number. */
  import: define({ path: '/orders/import', body: importOrdersBodySchema, answer: importOrdersResultSchema, allow: ORDER_LIST, tag: 'orders', bodyLimit: IMPORT_BODY_LIMIT }),
  list: define({ path: '/orders/list', body: listOrdersBodySchema, answer: orderListResultSchema, allow: ORDER_LIST, tag: 'orders', summary: 'Orders with filters, sort and paging; totals (USD and per currency) over every matching order' }),
  export: define({ path: '/orders/export', body: exportOrdersBodySchema, answer: 'xlsx', allow: ORDER_LIST, tag: 'orders', summary: 'The matching orders as .xlsx, with the shown columns' }),
  detail: define({ path: '/orders/detail', body: idBodySchema, answer: orderDetailSchema, allow: ORDER_LIST, tag: 'orders', summary: 'One order: its attribution, its buyer, refunds and the raw events received' }),
  daily: define({ path: '/orders/daily', body: orderDailyBodySchema, answer: orderDailyResultSchema, allow: ORDER_DAILY, tag: 'orders', summary: 'Orders, revenue, refunds, payers, new payers and ARPPU per report day, optionally split by site, drama, product or country' }),
  daily_export: define({ path: '/orders/daily_export', body: exportOrderDailyBodySchema, answer: 'xlsx', allow: ORDER_DAILY, tag: 'orders', summary: 'The daily figures as .xlsx' }),
  cohort: define({ path: '/orders/cohort', body: orderCohortBodySchema, answer: orderCohortResultSchema, allow: ORDER_DAILY, tag: 'orders', summary: 'The cohort triangle: revenue of each acquisition day at D0…D30 (not matured: null), with the day’s ad spend for ROI' }),
  cohort_export: define({ path: '/orders/cohort_export', body: exportOrderCohortBodySchema, answer: 'xlsx', allow: ORDER_DAILY, tag: 'orders', summary: 'The cohort triangle as .xlsx' }),
  options: define({ path: '/orders/options', body: orderOptionsBodySchema, answer: orderOptionsResultSchema, allow: ORDER_SCREENS, tag: 'orders', summary: 'Choices of the order filters: sites, dramas, products, campaigns, ads, countries' }),
};
