import { IS_ADMIN_MANAGER, IS_ADMIN_SUPER } from '@ads/contracts';
import type { Db } from './database.ts';
import type { SeededUser } from './seed.ts';

/** What the start log knows about passwords: generated just now, configured in the environment, or neither. */
export interface GuideInput {
  url: string;
  /** Accounts seeded by this start (their passwords, generated or configured). */
  seeded: SeededUser[];
  initAdminPasswordSet: boolean;
  initManagerPasswordSet: boolean;
  demo: boolean;
  /** The demo staff password when this start created the demo company (generated), else null. */
  demoPasswordCreated: string | null;
  demoPasswordSet: boolean;
}

interface Person {
  account: string;
  name: string;
  is_admin: number;
  is_leader: number;
  department: string | null;
  roles: string[];
}

/** The initial accounts and, with DEMO=1, the demo staff with their departments and roles. */
async function people(db: Db, demo: boolean): Promise<Person[]> {
  let q = db
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .select(['u.id', 'u.account', 'u.name', 'u.is_admin', 'u.is_leader', 'd.name as department'])
    .where('u.deleted_at', 'is', null)
    .where('u.status', '=', 'enabled');
  q = demo ? q.where((eb) => eb.or([eb('u.account', 'in', ['admin', 'manager']), eb('u.remark', '=', 'demo')])) : q.where('u.account', 'in', ['admin', 'manager']);
  const rows = await q.orderBy('u.id').execute();
  const roles = rows.length
    ? await db
        .selectFrom('user_roles as ur')
        .innerJoin('roles as r', 'r.id', 'ur.role_id')
        .select(['ur.user_id', 'r.name'])
        .where(
          'ur.user_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('r.id')
        .execute()
    : [];
  return rows.map((r) => ({ ...r, roles: roles.filter((x) => x.user_id === r.id).map((x) => x.name) }));
}

const role = (p: Person) => {
  if (p.is_admin === IS_ADMIN_SUPER) return 'super admin: the admin area (overview, scheduled tasks)';
  if (p.is_admin === IS_ADMIN_MANAGER) return 'manager: every screen outside the admin area, all data';
  const parts = [p.roles.length ? p.roles.join(' + ') : 'no role', p.department ?? 'no department'];
  if (p.is_leader === 1) parts.push('leader (sees the department)');
  return parts.join(' · ');
};

/**
 * The lines the server prints once it listens: where to open the app and whom to log in as, with
 * each account's role, and passwords where this process knows them (generated now) or says
 * where they come from. Configured passwords are never echoed.
 */
export async function loginGuide(db: Db, g: GuideInput): Promise<string> {
  const list = await people(db, g.demo);
  const seeded = new Map(g.seeded.map((s) => [s.account, s]));
  const initialPassword = (account: string) => {
    const s = seeded.get(account);
    if (s?.generated) return s.password;
    if (account === 'admin' ? g.initAdminPasswordSet : g.initManagerPasswordSet) return `INIT_${account.toUpperCase()}_PASSWORD`;
    return 'printed at the first start';
  };
  const width = Math.max(8, ...list.map((p) => p.account.length));
  const line = (p: Person, password?: string) => `    ${p.account.padEnd(width)}  ${p.name} — ${role(p)}${password ? `; password: ${password}` : ''}`;
  const initial = list.filter((p) => p.account === 'admin' || p.account === 'manager');
  const demo = list.filter((p) => p.account !== 'admin' && p.account !== 'manager');
  const out = [`  Open ${g.url} and log in as:`, ...initial.map((p) => line(p, initialPassword(p.account)))];
  if (g.demo && demo.length) {
    const password = g.demoPasswordCreated ?? (g.demoPasswordSet ? 'DEMO_PASSWORD' : 'printed when the demo company was created');
    out.push(`  Demo staff (DEMO=1), all with the password: ${password}`, ...demo.map((p) => line(p)));
  }
  out.push('  A forgotten password: a manager resets it on 账号管理 (/sys/accounts).');
  return `\n${out.join('\n')}\n\n`;
}
