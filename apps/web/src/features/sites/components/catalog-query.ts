import { dramaTestStatusSchema, idSchema, pageBodySchema, type ListDramasBody, type ListProductsBody } from '@ads/contracts';
import { z } from 'zod';

const DRAMA_SORTS = ['id', 'name', 'episode_count', 'created_at'] as const;
const PRODUCT_SORTS = ['id', 'name', 'price', 'created_at'] as const;

/**
 * The sites screen's state in the URL: the chosen site and its catalog's filters, sort and
 * page. One schema for both kinds of catalog; each list body takes the fields it knows.
 */
export const sitesScreenQuerySchema = pageBodySchema.extend({
  site: idSchema.optional(),
  keyword: z.string().trim().max(100).optional(),
  language: z.string().trim().max(16).optional(),
  test_status: dramaTestStatusSchema.optional(),
  tag: z.string().trim().max(32).optional(),
  sort_field: z.enum([...new Set([...DRAMA_SORTS, ...PRODUCT_SORTS])] as [string, ...string[]]).optional(),
});
export type SitesScreenQuery = z.output<typeof sitesScreenQuerySchema>;

const isOneOf = <T extends string>(list: readonly T[], v: string | undefined): v is T => v !== undefined && (list as readonly string[]).includes(v);

/** The /dramas/list body of a site for the screen state. */
export function dramasBody(q: SitesScreenQuery, siteId: number): ListDramasBody {
  return {
    page: q.page,
    page_size: q.page_size,
    site_id: siteId,
    ...(q.keyword && { keyword: q.keyword }),
    ...(q.language && { language: q.language }),
    ...(q.test_status && { test_status: q.test_status }),
    ...(q.tag && { tag: q.tag }),
    ...(isOneOf(DRAMA_SORTS, q.sort_field) && { sort_field: q.sort_field, ...(q.sort_order && { sort_order: q.sort_order }) }),
  };
}

/** The /products/list body of a site for the screen state. */
export function productsBody(q: SitesScreenQuery, siteId: number): ListProductsBody {
  return {
    page: q.page,
    page_size: q.page_size,
    site_id: siteId,
    ...(q.keyword && { keyword: q.keyword }),
    ...(q.tag && { tag: q.tag }),
    ...(isOneOf(PRODUCT_SORTS, q.sort_field) && { sort_field: q.sort_field, ...(q.sort_order && { sort_order: q.sort_order }) }),
  };
}

/** Languages offered first in drama forms and filters; any other code can be typed. */
export const COMMON_LANGUAGES = ['en', 'zh-CN', 'zh-TW', 'ja', 'ko', 'es', 'pt', 'fr', 'de', 'id', 'th', 'vi', 'ar', 'ru', 'it', 'tr'];
