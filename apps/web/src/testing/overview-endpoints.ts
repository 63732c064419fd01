import { adminOverviewSchema, homeOverviewSchema } from '@ads/contracts';
import { z } from 'zod';

/** The calls of the landing pages (/index, /admin/index), with the contract schemas of their bodies and answers. */
export const overviewEndpoints = {
  '/overview/home': { request: z.object({}).optional(), response: homeOverviewSchema },
  '/overview/admin': { request: z.object({}).optional(), response: adminOverviewSchema },
} as const;
