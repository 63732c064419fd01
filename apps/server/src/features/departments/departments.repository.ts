import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

export async function findDepartment(db: Db, id: number) {
  return db.selectFrom('departments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every department with its leader's name and member count, siblings by sort then name. */
export async function allDepartmentRows(db: Db) {
  const rows = await db
    .selectFrom('departments as d')
    .leftJoin('users as l', (j) => j.onRef('l.id', '=', 'd.leader_id').on('l.deleted_at', 'is', null))
    .select([
      'd.id',
      'd.name',
      'd.parent_id',
      'd.sort',
      'd.leader_id',
      'l.name as leader_name',
      sql<number>`(select count(*) from users u where u.department_id = d.id and u.deleted_at is null)`.as('member_count'),
    ])
    .orderBy('d.sort')
    .orderBy('d.name')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({ ...r, member_count: Number(r.member_count) }));
}

export async function insertDepartment(db: Db, values: Insertable<DB['departments']>) {
  return db.insertInto('departments').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateDepartment(db: Db, id: number, values: Updateable<DB['departments']>) {
  return db.updateTable('departments').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Locks a department row for the rest of the transaction. */
export async function lockDepartment(db: Db, id: number) {
  await sql`select id from departments where id = ${id} for update`.execute(db);
}

export async function countChildren(db: Db, id: number): Promise<number> {
  const row = await db.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** People (not deleted) in the department. */
export async function countMembers(db: Db, id: number): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('department_id', '=', id).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the department; deleted users keep their history but let go of it. */
export async function deleteDepartment(db: Db, id: number) {
  await db.updateTable('users').set({ department_id: null }).where('department_id', '=', id).execute();
  await db.deleteFrom('departments').where('id', '=', id).execute();
}
