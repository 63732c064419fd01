import { schemeStatusSchema } from '@ads/contracts';
import { z } from 'zod';
import { urlInt, useListQuery } from '@/components/list-kit';

/**
 * The publish screen's URL: the tab (new scheme / schemes), an opened scheme, the past scheme a
 * new one starts from, and the scheme list's filters, sort and page.
 */
export const publishScreenQuerySchema = z.object({
  tab: z.enum(['new', 'schemes']).default('new'),
  scheme: urlInt.pipe(z.number().int().positive()).optional(),
  from: urlInt.pipe(z.number().int().positive()).optional(),
  page: urlInt.pipe(z.number().min(1)).default(1),
  page_size: urlInt.pipe(z.number().min(1).max(100)).default(20),
  sort_field: z.enum(['id', 'created_at', 'finished_at']).optional(),
  sort_order: z.enum(['ascend', 'descend']).optional(),
  keyword: z.string().max(100).optional(),
  status: schemeStatusSchema.optional(),
});

export const usePublishScreenQuery = () => useListQuery(publishScreenQuerySchema, { filterKeys: ['keyword', 'status'] });
export type PublishScreenList = ReturnType<typeof usePublishScreenQuery>;
