import { ASSIGNABLE_PATHS } from '@ads/contracts';
import type { Db } from '../db/database.ts';
import { hashPassword, md5Hex } from '../lib/passwords.ts';

let seq = 0;
const next = () => `${Date.now().toString(36)}${++seq}`;

export interface UserSpec {
  account?: string;
  name?: string;
  password?: string;
  is_admin?: number;
  is_leader?: number;
  department_id?: number | null;
  status?: 'enabled' | 'disabled';
  /** Paths granted through a role created for this user. */
  paths?: string[];
}

/** Inserts a user (and a role with `paths`, if given); returns its id, account and password. */
export async function createUser(db: Db, spec: UserSpec = {}) {
  const account = spec.account ?? `u${next()}`;
  const password = spec.password ?? 'secret-123';
  const user = await db
    .insertInto('users')
    .values({
      account,
      name: spec.name ?? `User ${account}`,
      pwd_hash: await hashPassword(md5Hex(password)),
      is_admin: spec.is_admin ?? 0,
      is_leader: spec.is_leader ?? 0,
      department_id: spec.department_id ?? null,
      status: spec.status ?? 'enabled',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (spec.paths) {
    const role = await createRole(db, { paths: spec.paths });
    await db.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
  }
  return { id: user.id, account, password };
}

export async function createRole(db: Db, spec: { name?: string; paths?: string[] } = {}) {
  const paths = (spec.paths ?? []).filter((p) => ASSIGNABLE_PATHS.has(p));
  return db.insertInto('roles').values({ name: spec.name ?? `role-${next()}`, paths }).returning('id').executeTakeFirstOrThrow();
}

export async function createDepartment(db: Db, spec: { name?: string; parent_id?: number | null; leader_id?: number | null } = {}) {
  return db
    .insertInto('departments')
    .values({ name: spec.name ?? `dept-${next()}`, parent_id: spec.parent_id ?? null, leader_id: spec.leader_id ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
}

// ---- authorization assets (docs/api-assets.md) ----------------------------------------------

let platformSeq = 9_000_000;

/** An ad account as a sync would have stored it; `users` get it assigned. */
export async function createAdAccount(
  db: Db,
  spec: { name?: string; currency?: string; account_status?: number; platform?: 'dj' | 'ec' | null; amount_spent_minor?: number; balance_minor?: number; hosted?: boolean; users?: number[] } = {},
) {
  const n = ++platformSeq;
  const row = await db
    .insertInto('ad_accounts')
    .values({
      platform_id: `act_${n}`,
      account_id: String(n),
      name: spec.name ?? `Account ${n}`,
      currency: spec.currency ?? 'USD',
      timezone_name: 'America/Los_Angeles',
      timezone_offset_hours: -8,
      account_status: spec.account_status ?? 1,
      amount_spent_minor: spec.amount_spent_minor ?? 0,
      balance_minor: spec.balance_minor ?? 0,
      platform: spec.platform ?? null,
      hosted: spec.hosted ?? false,
    })
    .returning(['id', 'platform_id'])
    .executeTakeFirstOrThrow();
  if (spec.users?.length) await db.insertInto('user_ad_accounts').values(spec.users.map((user_id) => ({ user_id, ad_account_id: row.id }))).execute();
  return row;
}

/** A personal account without a usable token (for list and scope tests; connect through the API for real ones). */
export async function createPersonalAccount(db: Db, spec: { name?: string; owner_user_id?: number | null; status?: 'valid' | 'expiring' | 'invalid'; token_expires_at?: Date | null; ad_accounts?: number[] } = {}) {
  const n = ++platformSeq;
  const row = await db
    .insertInto('personal_accounts')
    .values({
      fb_user_id: String(n),
      name: spec.name ?? `FB user ${n}`,
      token_enc: null,
      token_expires_at: spec.token_expires_at ?? null,
      scopes: ['ads_management', 'ads_read'],
      status: spec.status ?? 'valid',
      owner_user_id: spec.owner_user_id ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (spec.ad_accounts?.length) await db.insertInto('personal_account_ad_accounts').values(spec.ad_accounts.map((ad_account_id) => ({ personal_account_id: row.id, ad_account_id }))).execute();
  return row;
}

export async function createPage(db: Db, spec: { name?: string; ad_accounts?: number[]; users?: number[] } = {}) {
  const n = ++platformSeq;
  const row = await db.insertInto('pages').values({ platform_id: String(n), name: spec.name ?? `Page ${n}`, category: 'Entertainment website' }).returning('id').executeTakeFirstOrThrow();
  if (spec.ad_accounts?.length) await db.insertInto('page_ad_accounts').values(spec.ad_accounts.map((ad_account_id) => ({ page_id: row.id, ad_account_id }))).execute();
  if (spec.users?.length) await db.insertInto('page_users').values(spec.users.map((user_id) => ({ page_id: row.id, user_id }))).execute();
  return row;
}

/** A pixel, linked to ad accounts as the platform reports ('platform') or as a person associated ('manual'). */
export async function createPixel(db: Db, spec: { name?: string; ad_accounts?: number[]; source?: 'platform' | 'manual' } = {}) {
  const n = ++platformSeq;
  const row = await db.insertInto('pixels').values({ platform_id: String(n), name: spec.name ?? `Pixel ${n}` }).returning('id').executeTakeFirstOrThrow();
  if (spec.ad_accounts?.length) {
    await db
      .insertInto('pixel_ad_accounts')
      .values(spec.ad_accounts.map((ad_account_id) => ({ pixel_id: row.id, ad_account_id, source: spec.source ?? 'platform' })))
      .execute();
  }
  return row;
}

/** A site with a placeholder secret ciphertext (create sites through the API to get a real one). */
export async function createSite(db: Db, spec: { name?: string; domain?: string; platform?: 'dj' | 'ec'; pixel_id?: number | null } = {}) {
  const n = next();
  return db
    .insertInto('sites')
    .values({
      name: spec.name ?? `Site ${n}`,
      domain: spec.domain ?? `s${n}.example.com`,
      platform: spec.platform ?? 'dj',
      link_template: `https://s${n}.example.com/{drama_id}`,
      pixel_id: spec.pixel_id ?? null,
      webhook_secret_enc: 'v1.00000000.placeholder',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function createDrama(db: Db, spec: { site_id: number; external_id?: string; name?: string; language?: string; test_status?: 'untested' | 'testing' | 'passed' | 'failed'; tags?: string[] }) {
  const n = next();
  return db
    .insertInto('dramas')
    .values({
      site_id: spec.site_id,
      external_id: spec.external_id ?? `d${n}`,
      name: spec.name ?? `Drama ${n}`,
      language: spec.language ?? 'zh',
      episode_count: 60,
      tags: spec.tags ?? [],
      test_status: spec.test_status ?? 'untested',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function createProduct(db: Db, spec: { site_id: number; external_id?: string; name?: string; price?: number; tags?: string[] }) {
  const n = next();
  return db
    .insertInto('products')
    .values({ site_id: spec.site_id, external_id: spec.external_id ?? `p${n}`, name: spec.name ?? `Product ${n}`, url: `https://shop.example.com/p/${n}`, price: spec.price ?? 9.99, currency: 'USD', tags: spec.tags ?? [] })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * A small company for data-scope tests: department D1 (leader `leader`, staff `s1`, `s2`) with a
 * sub-department D1a (`s3`), and D2 (`s4`), plus a manager. Everyone holds `paths`.
 */
export async function createScopeOrg(db: Db, paths: string[]) {
  const d1 = await createDepartment(db);
  const d1a = await createDepartment(db, { parent_id: d1.id });
  const d2 = await createDepartment(db);
  const role = await createRole(db, { paths });
  const user = async (spec: UserSpec) => {
    const u = await createUser(db, spec);
    await db.insertInto('user_roles').values({ user_id: u.id, role_id: role.id }).execute();
    return u;
  };
  return {
    departments: { d1: d1.id, d1a: d1a.id, d2: d2.id },
    manager: await createUser(db, { is_admin: 1 }),
    leader: await user({ department_id: d1.id, is_leader: 1 }),
    s1: await user({ department_id: d1.id }),
    s2: await user({ department_id: d1.id }),
    s3: await user({ department_id: d1a.id }),
    s4: await user({ department_id: d2.id }),
  };
}
