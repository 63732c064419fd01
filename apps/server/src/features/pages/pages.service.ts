import type { AssignMode, ListPagesBody } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { editLinks } from '../../lib/links.ts';
import { assertUsersManageable, assertWithin, forAssets, manageableUserIds, visibleAdAccountIds, visibleUserIds } from '../../lib/scope.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { assertAdAccountsExist } from '../ad-accounts/ad-accounts.service.ts';
import { existingPageIds, listPages, visiblePageIds } from './pages.repository.ts';

export interface AssociatePagesBody {
  page_ids: number[];
  ad_account_ids?: number[] | undefined;
  user_ids?: number[] | undefined;
  mode: AssignMode;
}

/** Pages (主页关联): which ad accounts and users may use each page (a company asset scope sees them all, lib/scope.ts forAssets). */
export function createPageService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async list(ctx: RequestContext, body: ListPagesBody) {
      return listPages(db, body, { users: await visibleUserIds(db, await forAssets(db, ctx.actor)) });
    },

    /**
     * Edits the pages' ad accounts and/or users. The pages and ad accounts must be in the caller's
     * scope and the users people they may assign to; "replace" keeps links outside that reach.
     */
    async associate(ctx: RequestContext, body: AssociatePagesBody) {
      const actor = await forAssets(db, ctx.actor);
      const pageIds = [...new Set(body.page_ids)];
      if ((await existingPageIds(db, pageIds)).length !== pageIds.length) throw new AppError('PAGE_NOT_FOUND', {}, 'page_ids');
      const users = await visibleUserIds(db, actor);
      if ((await visiblePageIds(db, pageIds, { users })).length !== pageIds.length) throw new AppError('FORBIDDEN_SCOPE');

      let accountReach: number[] | null = null;
      if (body.ad_account_ids) {
        const accounts = [...new Set(body.ad_account_ids)];
        await assertAdAccountsExist(db, accounts);
        accountReach = await visibleAdAccountIds(db, actor);
        assertWithin(accountReach, accounts);
      }
      let userReach: number[] | null = null;
      if (body.user_ids) {
        userReach = await manageableUserIds(db, actor);
        if (userReach && !userReach.length) throw new AppError('FORBIDDEN_SCOPE');
        await assertUsersManageable(db, actor, body.user_ids);
      }

      await db.transaction().execute(async (trx) => {
        for (const pageId of pageIds) {
          const change: Record<string, { before: number[]; after: number[] }> = {};
          if (body.ad_account_ids) {
            change.ad_account_ids = await editLinks(trx, {
              table: 'page_ad_accounts',
              owner: { column: 'page_id', id: pageId },
              target: 'ad_account_id',
              ids: body.ad_account_ids,
              mode: body.mode,
              reach: accountReach,
              now: clock.now(),
            });
          }
          if (body.user_ids) {
            change.user_ids = await editLinks(trx, { table: 'page_users', owner: { column: 'page_id', id: pageId }, target: 'user_id', ids: body.user_ids, mode: body.mode, reach: userReach, now: clock.now() });
          }
          const changed = Object.entries(change).filter(([, c]) => c.before.join() !== c.after.join());
          if (changed.length) {
            await writeAudit(trx, ctx, {
              action: 'page.associate',
              entity_type: 'page',
              entity_id: pageId,
              before: Object.fromEntries(changed.map(([k, c]) => [k, c.before])),
              after: Object.fromEntries(changed.map(([k, c]) => [k, c.after])),
            });
          }
        }
      });
      return { updated: pageIds.length };
    },
  };
}

export type PageService = ReturnType<typeof createPageService>;
