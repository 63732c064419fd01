import { endpoints, listOrdersBodySchema, ORDER_SORT_FIELDS, orderStatusSchema, sortOrderSchema, type ListOrdersBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { urlBoolean, urlInt } from '@/components/list-kit';
import { api } from '@/lib/api-client';
import { orderKeys } from './keys';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const digits = z.string().regex(/^\d{1,30}$/);
/** A non-negative decimal from the URL ("12.5"). */
const urlAmount = z.preprocess((v) => (typeof v === 'string' && /^\d{1,9}(\.\d{1,2})?$/.test(v) ? Number(v) : v), z.number().min(0).max(1e9));

/** The order list's state as it lives in the URL: range, filters, sort, page, and the order opened in the drawer. */
export const orderListQuerySchema = z.object({
  page: urlInt.pipe(z.number().min(1)).default(1),
  page_size: urlInt.pipe(z.number().min(1).max(500)).default(20),
  sort_field: z.enum(ORDER_SORT_FIELDS).optional(),
  sort_order: sortOrderSchema.optional(),
  paid_from: day.optional(),
  paid_to: day.optional(),
  site_id: urlInt.optional(),
  drama_id: urlInt.optional(),
  product_id: urlInt.optional(),
  campaign_id: digits.optional(),
  ad_id: digits.optional(),
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  new_payer: urlBoolean.optional(),
  status: orderStatusSchema.optional(),
  attributed: urlBoolean.optional(),
  amount_min: urlAmount.optional(),
  amount_max: urlAmount.optional(),
  order_no: z.string().max(64).optional(),
  app_user_id: z.string().max(64).optional(),
  /** The order whose detail is open. */
  order: urlInt.optional(),
});
export type OrderListQuery = z.output<typeof orderListQuerySchema>;

/** Keys of the filter bar (重置 clears exactly these; the range has its own control). */
export const ORDER_FILTER_KEYS = ['site_id', 'drama_id', 'product_id', 'campaign_id', 'ad_id', 'country', 'new_payer', 'status', 'attributed', 'amount_min', 'amount_max', 'order_no', 'app_user_id'] as const;

/** Whether the list looks one order or user up: then every day is searched, not the range. */
export const looksUp = (q: Pick<OrderListQuery, 'order_no' | 'app_user_id'>) => Boolean(q.order_no || q.app_user_id);

/** The list body of a URL state and the range on screen. */
export function orderListBody(q: OrderListQuery, range: [string, string]): ListOrdersBody {
  const { order: _order, paid_from: _f, paid_to: _t, ...rest } = q;
  return listOrdersBodySchema.parse({ ...rest, ...(!looksUp(q) && { paid_from: range[0], paid_to: range[1] }) });
}

/** One page of /orders/list, with the totals of every matching order. */
export function useOrders(body: ListOrdersBody) {
  return useQuery({
    queryKey: orderKeys.list(body),
    queryFn: () => api.call(endpoints.orders.list, body),
    placeholderData: keepPreviousData,
  });
}
