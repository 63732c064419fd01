import { z } from 'zod';
import { cronJobSchema } from './jobs.ts';

/**
 * The two landing pages: the super admin's overview (/admin/index) and everyone else's home
 * (/index). Only counts of what the system holds today; delivery figures come with ad data.
 */

const count = z.number().int().nonnegative();

/** Personal accounts by token health (PRODUCT.md "Domain facts": expiring = within a week). */
export const tokenHealthCountsSchema = z.object({ total: count, valid: count, expiring: count, invalid: count });
export type TokenHealthCounts = z.infer<typeof tokenHealthCountsSchema>;

/** Ad accounts: all, active on the platform (account_status 1), hosted (托管). */
export const adAccountCountsSchema = z.object({ total: count, active: count, hosted: count });

/** Materials by platform (dj 短剧, ec 电商). */
export const materialCountsSchema = z.object({ total: count, dj: count, ec: count });

/** /overview/admin: company-wide counts and every job with its last run, for the super admin. */
export const adminOverviewSchema = z.object({
  users: z.object({ total: count, enabled: count, disabled: count, managers: count, leaders: count }),
  departments: count,
  roles: count,
  personal_accounts: tokenHealthCountsSchema,
  ad_accounts: adAccountCountsSchema,
  pages: count,
  pixels: count,
  sites: count,
  materials: materialCountsSchema,
  jobs: z.array(cronJobSchema),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

/** /overview/home: what the caller sees in their own data scope (the same rules as each list screen). */
export const homeOverviewSchema = z.object({
  personal_accounts: tokenHealthCountsSchema,
  ad_accounts: adAccountCountsSchema,
  pages: count,
  pixels: count,
  materials: materialCountsSchema,
});
export type HomeOverview = z.infer<typeof homeOverviewSchema>;
