import type { AdAccount, AssignMode, ListAdAccountsBody, Platform } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Actor, RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { editLinks } from '../../lib/links.ts';
import { assertUsersManageable, assertWithin, forAssets, manageableUserIds, visibleAdAccountIds, visibleUserIds, type ScopeActor } from '../../lib/scope.ts';
import type { ExportPage } from '../../lib/xlsx.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { allAdAccounts, existingAdAccountIds, findAdAccount, findAdAccountRows, listAdAccounts, updateAdAccount, type AdAccountFilters } from './ad-accounts.repository.ts';

/** Refuses ids that are no ad account (field `ad_account_ids`): pages and pixels link to them. */
export async function assertAdAccountsExist(db: Db, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  if ((await existingAdAccountIds(db, unique)).length !== unique.length) throw new AppError('AD_ACCOUNT_NOT_FOUND', {}, 'ad_account_ids');
}

/** The asset screens of ad accounts; the list also serves the materials screens (see assetActor). */
const ASSET_SCREENS = ['/auth/account', '/operation/account'];

/**
 * Ad accounts (广告账户 / 广告托管): lists in the caller's data scope (a company asset scope sees
 * them all, lib/scope.ts forAssets), assignment, platform, hosting.
 */
export function createAdAccountService({ db, clock }: { db: Db; clock: Clock }) {
  /**
   * The caller as the asset screens see them. The list also feeds the materials screens' push
   * picker, where a caller without an ad-account screen keeps their own scope (materials are not
   * authorization assets: pushing checks the data scope).
   */
  const assetActor = (actor: Actor) => (ASSET_SCREENS.some((p) => actor.pathSet.has(p)) ? forAssets(db, actor) : actor);

  /** Refuses unknown ids (not found) and accounts outside the caller's scope (403); answers the rows. */
  async function loadVisible(actor: ScopeActor, ids: readonly number[]) {
    const unique = [...new Set(ids)];
    const rows = await findAdAccountRows(db, unique);
    if (rows.length !== unique.length) throw new AppError('AD_ACCOUNT_NOT_FOUND', {}, 'ad_account_ids');
    assertWithin(await visibleAdAccountIds(db, actor), unique);
    return rows;
  }

  return {
    async list(ctx: RequestContext, body: ListAdAccountsBody) {
      return listAdAccounts(db, body, { users: await visibleUserIds(db, await assetActor(ctx.actor)) }, clock.now());
    },

    async exportRows(ctx: RequestContext, filters: AdAccountFilters, page: ExportPage) {
      return allAdAccounts(db, filters, { users: await visibleUserIds(db, await forAssets(db, ctx.actor)) }, clock.now(), page);
    },

    /**
     * Who may use the accounts. Managers assign anyone; leaders the people of their department
     * subtree (links of others stay, even on "replace"); staff assign nobody.
     */
    async assignUsers(ctx: RequestContext, body: { ad_account_ids: number[]; user_ids: number[]; mode: AssignMode }) {
      const actor = await forAssets(db, ctx.actor);
      const rows = await loadVisible(actor, body.ad_account_ids);
      const reach = await manageableUserIds(db, actor);
      if (reach && !reach.length) throw new AppError('FORBIDDEN_SCOPE');
      await assertUsersManageable(db, actor, body.user_ids);
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          const { before, after } = await editLinks(trx, {
            table: 'user_ad_accounts',
            owner: { column: 'ad_account_id', id: row.id },
            target: 'user_id',
            ids: body.user_ids,
            mode: body.mode,
            reach,
            now: clock.now(),
          });
          if (before.join() !== after.join()) {
            await writeAudit(trx, ctx, { action: 'ad_account.assign_users', entity_type: 'ad_account', entity_id: row.id, before: { user_ids: before }, after: { user_ids: after } });
          }
        }
      });
      return { updated: rows.length };
    },

    async setPlatform(ctx: RequestContext, body: { ad_account_ids: number[]; platform: Platform | null }) {
      const rows = await loadVisible(await forAssets(db, ctx.actor), body.ad_account_ids);
      await db.transaction().execute(async (trx) => {
        for (const row of rows.filter((r) => r.platform !== body.platform)) {
          await updateAdAccount(trx, row.id, { platform: body.platform, updated_at: clock.now() });
          await writeAudit(trx, ctx, { action: 'ad_account.set_platform', entity_type: 'ad_account', entity_id: row.id, before: { platform: row.platform }, after: { platform: body.platform } });
        }
      });
      return { updated: rows.length };
    },

    /** Hosting (托管): automated rules act only on hosted accounts; hosted_at records since when. */
    async setHosted(ctx: RequestContext, body: { ad_account_ids: number[]; hosted: boolean }) {
      const rows = await loadVisible(await forAssets(db, ctx.actor), body.ad_account_ids);
      await db.transaction().execute(async (trx) => {
        for (const row of rows.filter((r) => r.hosted !== body.hosted)) {
          await updateAdAccount(trx, row.id, { hosted: body.hosted, hosted_at: body.hosted ? clock.now() : null, updated_at: clock.now() });
          await writeAudit(trx, ctx, { action: 'ad_account.set_hosted', entity_type: 'ad_account', entity_id: row.id, before: { hosted: row.hosted }, after: { hosted: body.hosted } });
        }
      });
      return { updated: rows.length };
    },

    async edit(ctx: RequestContext, body: { id: number; remark: string }): Promise<AdAccount> {
      const actor = await forAssets(db, ctx.actor);
      const [row] = await loadVisible(actor, [body.id]);
      await db.transaction().execute(async (trx) => {
        await updateAdAccount(trx, body.id, { remark: body.remark, updated_at: clock.now() });
        await writeAudit(trx, ctx, { action: 'ad_account.edit', entity_type: 'ad_account', entity_id: body.id, before: { remark: row!.remark }, after: { remark: body.remark } });
      });
      return (await findAdAccount(db, body.id, clock.now(), { users: await visibleUserIds(db, actor) }))!;
    },
  };
}

export type AdAccountService = ReturnType<typeof createAdAccountService>;
