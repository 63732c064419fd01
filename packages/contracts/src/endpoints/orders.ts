import { importOrdersBodySchema, importOrdersResultSchema } from '../assets.ts';
import { IMPORT_BODY_LIMIT } from './assets.ts';
import { define } from './define.ts';

// Orders (API.md "Orders"). The webhook itself (`POST /api/orders/webhook/<site id>`) is not a
// call of this table: it is public, signed by the site, and answers real HTTP statuses.

const ORDER_LIST = ['/admin/order/list'] as const;

export const orders = {
  /** Orders from a .csv / .xlsx whose headers are the webhook's field names: dry run, row errors, idempotent by order number. */
  import: define({ path: '/orders/import', body: importOrdersBodySchema, answer: importOrdersResultSchema, allow: ORDER_LIST, tag: 'orders', bodyLimit: IMPORT_BODY_LIMIT }),
};
