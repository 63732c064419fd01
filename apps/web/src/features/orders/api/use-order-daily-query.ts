import { ORDER_DAILY_FIELDS, orderSplitSchema, sortOrderSchema } from '@ads/contracts';
import { z } from 'zod';
import { urlBoolean, urlInt } from '@/components/list-kit';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** 订单分析's state as it lives in the URL: range, split, filters, sort and page of the day rows, the tab and the cohort's view. */
export const orderDailyQuerySchema = z.object({
  page: urlInt.pipe(z.number().min(1)).default(1),
  page_size: urlInt.pipe(z.number().min(1).max(500)).default(20),
  sort_field: z.enum(['day', 'key', ...ORDER_DAILY_FIELDS]).optional(),
  sort_order: sortOrderSchema.optional(),
  date_from: day.optional(),
  date_to: day.optional(),
  split: orderSplitSchema.optional(),
  site_id: urlInt.optional(),
  drama_id: urlInt.optional(),
  product_id: urlInt.optional(),
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  attributed: urlBoolean.optional(),
  view: z.enum(['daily', 'cohort']).optional(),
  metric: z.enum(['revenue', 'roi']).optional(),
  ages: z.enum(['key', 'all']).optional(),
});
export type OrderDailyQuery = z.output<typeof orderDailyQuerySchema>;

/** Keys of the filter bar (重置 clears exactly these). */
export const DAILY_FILTER_KEYS = ['site_id', 'drama_id', 'product_id', 'country', 'attributed'] as const;
