import { sql, type Kysely } from 'kysely';

/**
 * Roles grant exactly their listed paths (SPEC.md §6), and may give the company's authorization
 * assets (issue 11).
 *
 * 1. `roles.asset_scope`: `own` (the members' data scope, as before) or `company` (every personal
 *    account, ad account, page, pixel and site on the /auth and /operation screens, as a manager
 *    sees them). Every existing role is `own`, so nobody sees more than before.
 * 2. Until now a stored group path (e.g. `/advertising`) granted the group's whole subtree; from
 *    now on it grants the group entry alone. So that nobody loses access they had, every stored
 *    group path is expanded here into the group and all the pages below it, as the route table
 *    had them when this migration was written (frozen below, so a later change of the route table
 *    does not change what this migration does). Each changed role gets an audit entry with its
 *    paths before and after; `down` puts the stored paths back from those entries.
 */

/** Every regular route path in route-table order, with the groups and what they contained. */
const REGULAR_PATHS = [
  '/index',
  '/advertising', '/advertising/post', '/advertising/publish', '/advertising/publish-ec', '/advertising/start', '/advertising/video', '/advertising/upload-ec',
  '/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group', '/advertising/copy-log', '/advertising/close-log', '/advertising/remove-log',
  '/material', '/material/upload',
  '/analyse', '/analyse/effect', '/analyse/material', '/analyse/performance', '/analyse/performance-month', '/analyse/evaluate', '/analyse/scheme-user', '/analyse/scheme-list', '/analyse/landing',
  '/auth', '/auth/pixel', '/auth/homepage', '/auth/site', '/auth/account', '/auth/personage',
  '/sys', '/sys/accounts', '/sys/department', '/sys/role',
  '/operation', '/operation/auth', '/operation/account',
];
const GROUPS = ['/advertising', '/material', '/analyse', '/auth', '/sys', '/operation'];

/** A role's paths with each stored group expanded to the group and its pages, in route-table order. */
function expandGroups(paths: readonly string[]): string[] {
  const set = new Set(paths);
  for (const g of GROUPS) if (set.has(g)) for (const p of REGULAR_PATHS) if (p.startsWith(`${g}/`)) set.add(p);
  // Unknown paths (there should be none) stay, after the known ones, rather than being lost here.
  return [...REGULAR_PATHS.filter((p) => set.has(p)), ...paths.filter((p) => !REGULAR_PATHS.includes(p))];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table roles add column asset_scope text not null default 'own' check (asset_scope in ('own', 'company'))`.execute(db);
  const roles = await sql<{ id: number; paths: string[] }>`select id, paths from roles where paths && ${GROUPS}::text[] order by id for update`.execute(db);
  for (const role of roles.rows) {
    const expanded = expandGroups(role.paths);
    if (expanded.join() === role.paths.join()) continue;
    await sql`update roles set paths = ${expanded}::text[], updated_at = now() where id = ${role.id}`.execute(db);
    await sql`
      insert into audit_logs (action, entity_type, entity_id, before, after)
      values ('role.expand_groups', 'role', ${String(role.id)}, ${JSON.stringify({ paths: role.paths })}::jsonb, ${JSON.stringify({ paths: expanded })}::jsonb)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to the stored group paths, for roles nobody changed since.
  await sql`
    update roles r set paths = array(select jsonb_array_elements_text(a.before -> 'paths'))
    from audit_logs a
    where a.action = 'role.expand_groups' and a.entity_type = 'role' and a.entity_id = r.id::text
      and r.paths = array(select jsonb_array_elements_text(a.after -> 'paths'))`.execute(db);
  await sql`alter table roles drop column asset_scope`.execute(db);
}
