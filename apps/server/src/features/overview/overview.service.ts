import type { AdminOverview, HomeOverview, TokenStatus } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { AdAccountService } from '../ad-accounts/ad-accounts.service.ts';
import type { MaterialService } from '../materials/materials.service.ts';
import type { PageService } from '../pages/pages.service.ts';
import type { PersonalAccountService } from '../personal-accounts/personal-accounts.service.ts';
import type { PixelService } from '../pixels/pixels.service.ts';
import type { CronService } from '../sys-cron/sys-cron.service.ts';
import { organisationCounts } from './overview.repository.ts';

export interface OverviewServiceDeps {
  db: Db;
  personalAccounts: PersonalAccountService;
  adAccounts: AdAccountService;
  pages: PageService;
  pixels: PixelService;
  materials: MaterialService;
  cron: CronService;
}

/** Only the total of a list is read. */
const one = { page: 1, page_size: 1 } as const;

/**
 * The landing pages' figures. Asset and material counts are the totals of the list screens'
 * own queries (each service applies its data scope), so a figure on the home page always
 * matches what the screen behind it lists; the super admin's scope is everything.
 */
export function createOverviewService({ db, personalAccounts, adAccounts, pages, pixels, materials, cron }: OverviewServiceDeps) {
  async function scoped(ctx: RequestContext): Promise<HomeOverview> {
    const tokens = (status?: TokenStatus) => personalAccounts.list(ctx, { ...one, ...(status && { status }) }).then((r) => r.total);
    const accounts = (f: { account_status?: number; hosted?: boolean }) => adAccounts.list(ctx, { ...one, ...f }).then((r) => r.total);
    const [paTotal, valid, expiring, invalid, adTotal, active, hosted, pageTotal, pixelTotal, matTotal, dj, ec] = await Promise.all([
      tokens(),
      tokens('valid'),
      tokens('expiring'),
      tokens('invalid'),
      accounts({}),
      accounts({ account_status: 1 }),
      accounts({ hosted: true }),
      pages.list(ctx, one).then((r) => r.total),
      pixels.list(ctx, one).then((r) => r.total),
      materials.list(ctx, one).then((r) => r.total),
      materials.list(ctx, { ...one, platform: 'dj' }).then((r) => r.total),
      materials.list(ctx, { ...one, platform: 'ec' }).then((r) => r.total),
    ]);
    return {
      personal_accounts: { total: paTotal, valid, expiring, invalid },
      ad_accounts: { total: adTotal, active, hosted },
      pages: pageTotal,
      pixels: pixelTotal,
      materials: { total: matTotal, dj, ec },
    };
  }

  return {
    /** /index: the caller's own data scope. */
    home: scoped,

    /** /admin/index: everything (the super admin's scope), the organisation, and every job with its last run. */
    async admin(ctx: RequestContext): Promise<AdminOverview> {
      const [assets, org, jobs] = await Promise.all([scoped(ctx), organisationCounts(db), cron.list(ctx)]);
      return { ...assets, ...org, jobs: jobs.list };
    },
  };
}
export type OverviewService = ReturnType<typeof createOverviewService>;
