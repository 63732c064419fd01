import { IS_ADMIN_MANAGER, IS_ADMIN_SUPER } from '@ads/contracts';
import type { Db } from '../../db/database.ts';

/** Company-wide counts of people and organisation for the super admin's overview (deleted rows left out). */
export async function organisationCounts(db: Db) {
  const [users, departments, roles, sites] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.countAll<number>().filterWhere('status', '=', 'enabled').as('enabled'),
        eb.fn.countAll<number>().filterWhere('status', '=', 'disabled').as('disabled'),
        eb.fn.countAll<number>().filterWhere('is_admin', '=', IS_ADMIN_MANAGER).as('managers'),
        eb.fn.countAll<number>().filterWhere('is_leader', '=', 1).as('leaders'),
      ])
      // The super admin runs the system; the people it overviews are the company's staff.
      .where('deleted_at', 'is', null)
      .where('is_admin', '!=', IS_ADMIN_SUPER)
      .executeTakeFirstOrThrow(),
    db.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('roles').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('sites').select((eb) => eb.fn.countAll<number>().as('n')).where('deleted_at', 'is', null).executeTakeFirstOrThrow(),
  ]);
  return {
    users: { total: Number(users.total), enabled: Number(users.enabled), disabled: Number(users.disabled), managers: Number(users.managers), leaders: Number(users.leaders) },
    departments: Number(departments.n),
    roles: Number(roles.n),
    sites: Number(sites.n),
  };
}
