import {
  IS_ADMIN_MANAGER,
  IS_ADMIN_STAFF,
  IS_ADMIN_SUPER,
  MATERIAL_PATHS,
  type CreateUserBody,
  type EditUserBody,
  type ListUsersBody,
  type SimpleListBody,
  type SimpleUser,
  type SysUser,
} from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { isManager, type Actor, type RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { generatePassword, hashPassword, md5Hex } from '../../lib/passwords.ts';
import { assertCanGrantPaths, assetScopeOf, departmentSubtree, forAssets, managedDepartments, manageableUserIds, manageRefusal, seesEverything, visibleUserIds } from '../../lib/scope.ts';
import { isUniqueViolation } from '../../lib/sql.ts';
import type { ExportPage } from '../../lib/xlsx.ts';
import { writeAudit, type AuditContext } from '../audit/audit.service.ts';
import { revokeSessions } from '../session/session.service.ts';
import {
  allUsers,
  departmentExists,
  findRoles,
  findUser,
  insertUser,
  listUsers,
  setPasswordHash,
  setUserRoles,
  simpleUsers,
  softDeleteUser,
  updateUser,
  type SimpleUserReach,
  type UserFilters,
  type UserScope,
  findActiveUserId as findActiveUser,
  setLeaderFlag,
} from './users.repository.ts';

export interface UserServiceDeps {
  db: Db;
  clock: Clock;
}

/** What the audit log keeps of a user: everything but secrets. */
const auditView = (u: SysUser | undefined) =>
  u && { account: u.account, name: u.name, remark: u.remark, is_admin: u.is_admin, is_leader: u.is_leader, platform: u.platform, department_id: u.department_id, status: u.status, role_ids: u.roles.map((r) => r.id) };

/** Holders of these also see, in pickers, the people of the departments they manage. */
const SYS_PEOPLE_PATHS = ['/sys/accounts', '/sys/department'];
/** The page of whoever makes materials: the editors a material can be credited to. */
const EDITOR_PATH = '/material/upload';

/** An enabled user's id (a department's leader must be one). */
export const findActiveUserId = (db: Db, id: number) => findActiveUser(db, id);

/**
 * Makes a user a leader (a department appointed them): is_leader widens their data scope to the
 * department, so the flag and the appointment never disagree. Audited when it changes.
 */
export async function markLeader(db: Db, ctx: AuditContext, id: number, now: Date) {
  if (await setLeaderFlag(db, id, now)) {
    await writeAudit(db, ctx, { action: 'user.edit', entity_type: 'user', entity_id: id, before: { is_leader: 0 }, after: { is_leader: 1 } });
  }
}

export function createUserService({ db, clock }: UserServiceDeps) {
  async function scopeOf(actor: Actor, filters: { department_id?: number } = {}): Promise<UserScope> {
    return {
      departments: await managedDepartments(db, actor),
      selfId: actor.id,
      ...(filters.department_id && { departmentFilter: await departmentSubtree(db, filters.department_id) }),
    };
  }

  /**
   * Loads a user the actor may manage on /sys/accounts, or explains why not: nobody manages a
   * user whose scope is wider than their own (lib/scope.ts manageRefusal).
   */
  async function manageable(actor: Actor, id: number): Promise<SysUser> {
    const user = await findUser(db, id);
    if (!user) throw new AppError('USER_NOT_FOUND');
    if (user.is_admin === IS_ADMIN_SUPER && actor.id !== user.id) throw new AppError('SUPER_ADMIN_PROTECTED');
    if (isManager(actor) || user.id === actor.id) return user;
    const refusal = manageRefusal(actor, await managedDepartments(db, actor), { ...user, asset_scope: await assetScopeOf(db, user.id) });
    if (refusal === 'scope') throw new AppError('FORBIDDEN_SCOPE');
    if (refusal === 'manager') throw new AppError('CANNOT_MANAGE_USER');
    if (refusal === 'wider') throw new AppError('CANNOT_MANAGE_WIDER_SCOPE');
    return user;
  }

  async function assertDepartment(actor: Actor, departmentId: number | null | undefined) {
    if (departmentId == null) {
      // Non-managers keep the people they create inside their own part of the tree.
      if (departmentId === null && !isManager(actor)) throw new AppError('FORBIDDEN_SCOPE');
      return;
    }
    if (!(await departmentExists(db, departmentId))) throw new AppError('DEPARTMENT_NOT_FOUND');
    const departments = await managedDepartments(db, actor);
    if (departments && !departments.includes(departmentId)) throw new AppError('FORBIDDEN_SCOPE');
  }

  /** The roles exist, and grant nothing the actor lacks: no path they do not hold, no company asset scope they do not have. */
  async function assertRoles(actor: Actor, roleIds: number[]) {
    if (!roleIds.length) return;
    const roles = await findRoles(db, roleIds);
    if (roles.length !== new Set(roleIds).size) throw new AppError('ROLE_NOT_FOUND');
    assertCanGrantPaths(actor, roles.flatMap((r) => r.paths));
    const wide = roles.filter((r) => r.asset_scope === 'company');
    if (wide.length && !isManager(actor) && actor.asset_scope !== 'company') throw new AppError('CANNOT_GRANT_ASSET_SCOPE', { roles: wide.map((r) => r.name).join(', ') });
  }

  function assertAdminLevel(actor: Actor, isAdmin: number | undefined) {
    if (isAdmin === IS_ADMIN_MANAGER && !isManager(actor)) throw new AppError('CANNOT_GRANT_MANAGER');
  }

  /** is_leader widens a user's data scope to their department subtree: only managers grant it. */
  function assertLeaderFlag(actor: Actor, isLeader: number | undefined, before = 0) {
    if (isLeader !== undefined && isLeader !== before && !isManager(actor)) throw new AppError('CANNOT_GRANT_LEADER');
  }

  return {
    async list(actor: Actor, body: ListUsersBody) {
      return listUsers(db, body, await scopeOf(actor, body));
    },

    async exportRows(actor: Actor, filters: UserFilters, page: ExportPage) {
      return allUsers(db, filters, await scopeOf(actor, filters), page);
    },

    /** Creates a user; without `pwd` a password is generated and returned once. */
    async create(ctx: RequestContext, body: CreateUserBody): Promise<{ id: number; new_passwd?: string }> {
      const { actor } = ctx;
      assertAdminLevel(actor, body.is_admin);
      assertLeaderFlag(actor, body.is_leader);
      await assertDepartment(actor, body.department_id ?? (isManager(actor) ? undefined : null));
      await assertRoles(actor, body.role_ids ?? []);
      const generated = body.pwd ? undefined : generatePassword();
      const pwdHash = await hashPassword(body.pwd ?? md5Hex(generated!));
      try {
        const id = await db.transaction().execute(async (trx) => {
          const row = await insertUser(trx, {
            account: body.account,
            name: body.name,
            remark: body.remark ?? '',
            pwd_hash: pwdHash,
            is_admin: body.is_admin ?? IS_ADMIN_STAFF,
            is_leader: body.is_leader ?? 0,
            platform: body.platform ?? 'dj',
            department_id: body.department_id ?? null,
          });
          await setUserRoles(trx, row.id, body.role_ids ?? []);
          await writeAudit(trx, ctx, { action: 'user.create', entity_type: 'user', entity_id: row.id, after: auditView(await findUser(trx, row.id)) });
          return row.id;
        });
        return generated ? { id, new_passwd: generated } : { id };
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('ACCOUNT_TAKEN', { account: body.account }, 'account');
        throw err;
      }
    },

    async edit(ctx: RequestContext, body: EditUserBody): Promise<SysUser> {
      const { actor } = ctx;
      const before = await manageable(actor, body.id);
      const self = before.id === actor.id;
      if (self && body.is_admin !== undefined && body.is_admin !== before.is_admin) throw new AppError('CANNOT_CHANGE_OWN_ADMIN');
      if (self && body.status === 'disabled') throw new AppError('CANNOT_DISABLE_SELF');
      // is_leader widens a user's data scope to their department: nobody below manager grants it to themself or anyone.
      if (self && !isManager(actor) && body.is_leader !== undefined && body.is_leader !== before.is_leader) throw new AppError('CANNOT_CHANGE_OWN_LEADER');
      assertLeaderFlag(actor, body.is_leader, before.is_leader);
      if (body.is_admin !== undefined && body.is_admin !== before.is_admin) assertAdminLevel(actor, Math.max(body.is_admin, before.is_admin));
      if (body.department_id !== undefined && body.department_id !== before.department_id) await assertDepartment(actor, body.department_id);
      if (body.role_ids) {
        // Only newly added roles need the grant check; keeping what someone already has is fine.
        const added = body.role_ids.filter((id) => !before.roles.some((r) => r.id === id));
        await assertRoles(actor, added);
        if (added.length < body.role_ids.length) await assertRoles({ ...actor, is_admin: IS_ADMIN_MANAGER }, body.role_ids);
      }
      try {
        return await db.transaction().execute(async (trx) => {
          const set = {
            ...(body.account !== undefined && { account: body.account }),
            ...(body.name !== undefined && { name: body.name }),
            ...(body.remark !== undefined && { remark: body.remark }),
            ...(body.is_admin !== undefined && { is_admin: body.is_admin }),
            ...(body.is_leader !== undefined && { is_leader: body.is_leader }),
            ...(body.platform !== undefined && { platform: body.platform }),
            ...(body.department_id !== undefined && { department_id: body.department_id }),
            ...(body.status !== undefined && { status: body.status }),
            updated_at: clock.now(),
          };
          await updateUser(trx, body.id, set);
          if (body.role_ids) await setUserRoles(trx, body.id, body.role_ids);
          // A disabled user's sessions end at once (PRODUCT.md).
          if (body.status === 'disabled' && before.status !== 'disabled') await revokeSessions(trx, body.id, clock.now());
          const after = (await findUser(trx, body.id))!;
          await writeAudit(trx, ctx, { action: 'user.edit', entity_type: 'user', entity_id: body.id, before: auditView(before), after: auditView(after) });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('ACCOUNT_TAKEN', { account: body.account }, 'account');
        throw err;
      }
    },

    /** Soft delete: the row stays for history, the account name becomes free, sessions end. */
    async remove(ctx: RequestContext, id: number) {
      if (id === ctx.actor.id) throw new AppError('CANNOT_DELETE_SELF');
      const before = await manageable(ctx.actor, id);
      await db.transaction().execute(async (trx) => {
        const now = clock.now();
        await softDeleteUser(trx, id, now);
        await revokeSessions(trx, id, now);
        await writeAudit(trx, ctx, { action: 'user.delete', entity_type: 'user', entity_id: id, before: auditView(before) });
      });
    },

    /**
     * A new random password. Resetting one's own keeps the current session (so the new password
     * stays on screen) and ends the others; resetting someone else's ends all of theirs.
     */
    async resetPassword(ctx: RequestContext, userId: number): Promise<{ new_passwd: string }> {
      const { actor } = ctx;
      const self = userId === actor.id;
      if (!self) {
        if (!actor.pathSet.has('/sys/accounts')) throw new AppError('FORBIDDEN');
        await manageable(actor, userId);
      }
      const password = generatePassword();
      const pwdHash = await hashPassword(md5Hex(password));
      await db.transaction().execute(async (trx) => {
        if (!(await setPasswordHash(trx, userId, pwdHash, clock.now()))) throw new AppError('USER_NOT_FOUND');
        await revokeSessions(trx, userId, clock.now(), self ? actor.sessionId : undefined);
        await writeAudit(trx, ctx, { action: 'user.reset_password', entity_type: 'user', entity_id: userId });
      });
      return { new_passwd: password };
    },

    /**
     * Enabled users for pickers, within what the caller may see or act for: managers (and a company
     * asset scope, who assign assets to anyone) everyone; others the people whose data they see, whom
     * they may assign to, and, with /sys/accounts or /sys/department, the people of the departments
     * they manage. `purpose: 'editor'` adds everyone who may work on materials, for a caller who does.
     */
    async simpleList(actor: Actor, body: SimpleListBody): Promise<SimpleUser[]> {
      let reach: SimpleUserReach | null = null;
      if (!seesEverything(await forAssets(db, actor))) {
        reach = {
          ids: [...new Set([actor.id, ...((await visibleUserIds(db, actor)) ?? []), ...((await manageableUserIds(db, actor)) ?? [])])],
          departments: SYS_PEOPLE_PATHS.some((p) => actor.pathSet.has(p)) ? ((await managedDepartments(db, actor)) ?? []) : [],
          editorPath: body?.purpose === 'editor' && MATERIAL_PATHS.some((p) => actor.pathSet.has(p)) ? EDITOR_PATH : null,
        };
      }
      return simpleUsers(db, reach, { keyword: body?.keyword, department_id: body?.department_id });
    },

    /** Each listed user's roles become exactly role_ids, all or nothing. */
    async batchSaveUserRole(ctx: RequestContext, body: { user_ids: number[]; role_ids: number[] }) {
      const userIds = [...new Set(body.user_ids)];
      const befores: SysUser[] = [];
      for (const id of userIds) befores.push(await manageable(ctx.actor, id));
      await assertRoles(ctx.actor, body.role_ids);
      await db.transaction().execute(async (trx) => {
        for (const before of befores) {
          await setUserRoles(trx, before.id, body.role_ids);
          await writeAudit(trx, ctx, {
            action: 'user.set_roles',
            entity_type: 'user',
            entity_id: before.id,
            before: { role_ids: before.roles.map((r) => r.id) },
            after: { role_ids: [...new Set(body.role_ids)].sort((a, b) => a - b) },
          });
        }
      });
      return { updated: userIds.length };
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
