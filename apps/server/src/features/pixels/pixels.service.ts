import type { AssignMode, ListPixelsBody } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { editLinks } from '../../lib/links.ts';
import { assertWithin, forAssets, visibleAdAccountIds, visibleUserIds } from '../../lib/scope.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { assertAdAccountsExist } from '../ad-accounts/ad-accounts.service.ts';
import { existingPixelIds, listPixels, visiblePixelIds } from './pixels.repository.ts';

/** Pixels (像素管理): which ad accounts may use each pixel, besides those the platform shares it with (a company asset scope sees them all). */
/** Refuses an id that is no pixel (sites pick one). */
export async function assertPixelExists(db: Db, id: number, field: string) {
  if (!(await existingPixelIds(db, [id])).length) throw new AppError('PIXEL_NOT_FOUND', {}, field);
}

export function createPixelService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async list(ctx: RequestContext, body: ListPixelsBody) {
      return listPixels(db, body, { users: await visibleUserIds(db, await forAssets(db, ctx.actor)) });
    },

    /**
     * Edits our associations ('manual' links) only: what a sync found on the platform stays and
     * keeps showing; "replace" keeps links to ad accounts outside the caller's scope.
     */
    async associate(ctx: RequestContext, body: { pixel_ids: number[]; ad_account_ids: number[]; mode: AssignMode }) {
      const actor = await forAssets(db, ctx.actor);
      const pixelIds = [...new Set(body.pixel_ids)];
      if ((await existingPixelIds(db, pixelIds)).length !== pixelIds.length) throw new AppError('PIXEL_NOT_FOUND', {}, 'pixel_ids');
      if ((await visiblePixelIds(db, pixelIds, { users: await visibleUserIds(db, actor) })).length !== pixelIds.length) throw new AppError('FORBIDDEN_SCOPE');
      const accounts = [...new Set(body.ad_account_ids)];
      await assertAdAccountsExist(db, accounts);
      const reach = await visibleAdAccountIds(db, actor);
      assertWithin(reach, accounts);
      await db.transaction().execute(async (trx) => {
        for (const pixelId of pixelIds) {
          const { before, after } = await editLinks(trx, {
            table: 'pixel_ad_accounts',
            owner: { column: 'pixel_id', id: pixelId },
            target: 'ad_account_id',
            ids: accounts,
            mode: body.mode,
            reach,
            fixed: { source: 'manual' },
            now: clock.now(),
          });
          if (before.join() !== after.join()) {
            await writeAudit(trx, ctx, { action: 'pixel.associate', entity_type: 'pixel', entity_id: pixelId, before: { ad_account_ids: before }, after: { ad_account_ids: after } });
          }
        }
      });
      return { updated: pixelIds.length };
    },
  };
}

export type PixelService = ReturnType<typeof createPixelService>;
