import type { AdAccount, AssignMode, Drama, Page, PersonalAccount, Pixel, Product, SimpleUser, Site, Task } from '@ads/contracts';
import { buildDrama, buildPersonalAccount, buildProduct, buildTask } from './asset-factories';
import { MockRefusal, type Handlers } from './mock-api';

/** The secret the fake server "generates" for a new site, and for each rotation after it. */
export const SITE_SECRET = 'whsec_4f1c9d7e2b8a6053';
export const ROTATED_SECRET = 'whsec_rotated_77aa10ff';
export const OAUTH_URL = 'https://www.facebook.com/v25.0/dialog/oauth?client_id=123&state=s1';

type Ref = { id: number; name: string };

function page<T>(rows: T[], body: { page: number; page_size: number }) {
  return { list: rows.slice((body.page - 1) * body.page_size, body.page * body.page_size), total: rows.length };
}

/** Applies an association edit (add / replace / remove) to a list of refs. */
function applyMode(current: Ref[], chosen: Ref[], mode: AssignMode): Ref[] {
  if (mode === 'replace') return chosen;
  if (mode === 'remove') return current.filter((r) => !chosen.some((c) => c.id === r.id));
  return [...current, ...chosen.filter((c) => !current.some((r) => r.id === c.id))];
}

const includes = (text: string, keyword: string | undefined) => !keyword || text.toLowerCase().includes(keyword.toLowerCase());

export interface AssetSeed {
  personalAccounts?: PersonalAccount[];
  adAccounts?: AdAccount[];
  pages?: Page[];
  pixels?: Pixel[];
  sites?: Site[];
  dramas?: Drama[];
  products?: Product[];
  tasks?: Task[];
  users?: SimpleUser[];
  /** How many times /tasks/get answers "running" before a task succeeds. */
  taskPolls?: number;
  /** What each asset list says lies outside the viewer's scope (`outside_scope`); 0 when not given. */
  outsideScope?: Partial<Record<'personal' | 'adAccounts' | 'pages' | 'pixels', number>>;
}

/**
 * An in-memory stand-in for the 授权管理 / 托管管理 endpoints (docs/api-assets.md): filters,
 * paging, association modes, the one-time secrets, catalog import checks and task progress,
 * so screens can be exercised end to end.
 */
export function assetsBackend(seed: AssetSeed = {}) {
  const db = {
    personalAccounts: [...(seed.personalAccounts ?? [])],
    adAccounts: [...(seed.adAccounts ?? [])],
    pages: [...(seed.pages ?? [])],
    pixels: [...(seed.pixels ?? [])],
    sites: [...(seed.sites ?? [])],
    dramas: [...(seed.dramas ?? [])],
    products: [...(seed.products ?? [])],
    tasks: [...(seed.tasks ?? [])],
    users: [...(seed.users ?? [])],
    polls: new Map<number, number>(),
  };
  const taskPolls = seed.taskPolls ?? 2;
  let nextId = 9000;
  const userRefs = (ids: number[]) => ids.map((id) => ({ id, name: db.users.find((u) => u.id === id)?.name ?? `User ${id}` }));
  const adAccountRefs = (ids: number[]) => ids.map((id) => ({ id, name: db.adAccounts.find((a) => a.id === id)?.name ?? `Account ${id}` }));
  const outside = (list: keyof NonNullable<AssetSeed['outsideScope']>) => ({ outside_scope: seed.outsideScope?.[list] ?? 0 });

  const handlers: Handlers = {
    '/sys-users/simple_list': (b) => db.users.filter((u) => includes(u.name, b?.keyword) || includes(u.account, b?.keyword)),

    '/personal-accounts/list': (b) => ({
      ...page(
        db.personalAccounts.filter(
          (p) =>
            (includes(p.name, b.keyword) || p.fb_user_id.includes(b.keyword ?? '')) &&
            (!b.status || p.status === b.status) &&
            (b.owner_user_id === undefined || p.owner?.id === b.owner_user_id) &&
            (b.hosted === undefined || p.hosted === b.hosted),
        ),
        b,
      ),
      ...outside('personal'),
    }),
    '/personal-accounts/connect_token': (b) => {
      if (b.access_token.includes('revoked')) return new MockRefusal('The token is invalid: it was revoked by the user.');
      const account = buildPersonalAccount({ name: 'Token User', fb_user_id: '100099', owner: b.owner_user_id ? userRefs([b.owner_user_id])[0]! : null });
      db.personalAccounts.unshift(account);
      return account;
    },
    '/personal-accounts/oauth_start': () => ({ url: OAUTH_URL }),
    '/personal-accounts/check_token': (b) => {
      const p = db.personalAccounts.find((x) => x.id === b.id);
      if (!p) return new MockRefusal('The personal account does not exist.');
      p.last_checked_at = new Date().toISOString();
      return p;
    },
    '/personal-accounts/sync': (b) => {
      const task = buildTask({ id: ++nextId, title: `Sync ${b.ids.length} personal account(s)`, status: 'queued' });
      db.tasks.unshift(task);
      db.polls.set(task.id, 0);
      return { task_id: task.id };
    },
    '/personal-accounts/set_owner': (b) => {
      for (const p of db.personalAccounts) if (b.ids.includes(p.id)) p.owner = b.owner_user_id ? userRefs([b.owner_user_id])[0]! : null;
      return { updated: b.ids.length };
    },
    '/personal-accounts/set_hosted': (b) => {
      for (const p of db.personalAccounts) if (b.ids.includes(p.id)) p.hosted = b.hosted;
      return { updated: b.ids.length };
    },
    '/personal-accounts/disconnect': (b) => {
      db.personalAccounts = db.personalAccounts.filter((p) => p.id !== b.id);
      return null;
    },

    '/ad-accounts/list': (b) => {
      const rows = db.adAccounts.filter(
        (a) =>
          (includes(a.name, b.keyword) || a.platform_id.includes(b.keyword ?? '')) &&
          (b.account_status === undefined || a.account_status === b.account_status) &&
          (!b.platform || a.platform === b.platform) &&
          (!b.currency || a.currency === b.currency) &&
          (b.user_id === undefined || a.users.some((u) => u.id === b.user_id)) &&
          (!b.unassigned || a.users.length === 0) &&
          (b.personal_account_id === undefined || a.personal_accounts.some((p) => p.id === b.personal_account_id)) &&
          (b.hosted === undefined || a.hosted === b.hosted),
      );
      // The fake rate: every currency is worth one dollar.
      const summary = { amount_spent_usd: rows.reduce((s, a) => s + a.amount_spent, 0), balance_usd: rows.reduce((s, a) => s + a.balance, 0) };
      return { ...page(rows, b), summary, ...outside('adAccounts') };
    },
    '/ad-accounts/export': () => 'xlsx',
    '/ad-accounts/assign_users': (b) => {
      for (const a of db.adAccounts) if (b.ad_account_ids.includes(a.id)) a.users = applyMode(a.users, userRefs(b.user_ids), b.mode);
      return { updated: b.ad_account_ids.length };
    },
    '/ad-accounts/set_platform': (b) => {
      for (const a of db.adAccounts) if (b.ad_account_ids.includes(a.id)) a.platform = b.platform;
      return { updated: b.ad_account_ids.length };
    },
    '/ad-accounts/set_hosted': (b) => {
      for (const a of db.adAccounts) if (b.ad_account_ids.includes(a.id)) a.hosted = b.hosted;
      return { updated: b.ad_account_ids.length };
    },
    '/ad-accounts/edit': (b) => {
      const a = db.adAccounts.find((x) => x.id === b.id);
      if (!a) return new MockRefusal('The ad account does not exist.');
      a.remark = b.remark;
      return a;
    },

    '/pages/list': (b) => ({
      ...page(
        db.pages.filter(
          (p) =>
            (includes(p.name, b.keyword) || p.platform_id.includes(b.keyword ?? '')) &&
            (b.ad_account_id === undefined || p.ad_accounts.some((a) => a.id === b.ad_account_id)) &&
            (b.user_id === undefined || p.users.some((u) => u.id === b.user_id)) &&
            (b.personal_account_id === undefined || p.personal_accounts.some((x) => x.id === b.personal_account_id)),
        ),
        b,
      ),
      ...outside('pages'),
    }),
    '/pages/associate': (b) => {
      for (const p of db.pages) {
        if (!b.page_ids.includes(p.id)) continue;
        if (b.ad_account_ids) p.ad_accounts = applyMode(p.ad_accounts, adAccountRefs(b.ad_account_ids), b.mode);
        if (b.user_ids) p.users = applyMode(p.users, userRefs(b.user_ids), b.mode);
      }
      return { updated: b.page_ids.length };
    },
    '/pixels/list': (b) => ({
      ...page(
        db.pixels.filter((p) => (includes(p.name, b.keyword) || p.platform_id.includes(b.keyword ?? '')) && (b.ad_account_id === undefined || p.ad_accounts.some((a) => a.id === b.ad_account_id))),
        b,
      ),
      ...outside('pixels'),
    }),
    '/pixels/associate': (b) => {
      // As on the server: only our associations change; what the platform shares stays (and wins when both exist).
      for (const p of db.pixels) {
        if (!b.pixel_ids.includes(p.id)) continue;
        const shared = p.ad_accounts.filter((a) => a.source === 'platform');
        const ours = applyMode(
          p.ad_accounts.filter((a) => a.source === 'manual'),
          adAccountRefs(b.ad_account_ids),
          b.mode,
        ).filter((a) => !shared.some((s) => s.id === a.id));
        p.ad_accounts = [...shared, ...ours.map((a) => ({ id: a.id, name: a.name, source: 'manual' as const }))].sort((x, y) => x.id - y.id);
      }
      return { updated: b.pixel_ids.length };
    },

    '/sites/list': (b) => page(db.sites.filter((s) => (includes(s.name, b.keyword) || includes(s.domain, b.keyword)) && (!b.platform || s.platform === b.platform)), b),
    '/sites/create': (b) => {
      if (db.sites.some((s) => s.domain === b.domain)) return new MockRefusal(`The domain ${b.domain} is used by another site.`, { errors: [{ field: 'domain', message: 'Already used by another site' }] });
      const now = new Date().toISOString();
      const site: Site = {
        id: ++nextId,
        name: b.name,
        domain: b.domain,
        platform: b.platform,
        link_template: b.link_template,
        pixel: b.pixel_id ? { id: b.pixel_id, name: db.pixels.find((p) => p.id === b.pixel_id)?.name ?? 'Pixel' } : null,
        remark: b.remark ?? '',
        webhook_url: `https://ads.example.com/api/orders/webhook/${nextId}`,
        catalog_count: 0,
        created_at: now,
        updated_at: now,
      };
      db.sites.push(site);
      return { id: site.id, webhook_secret: SITE_SECRET };
    },
    '/sites/edit': (b) => {
      const s = db.sites.find((x) => x.id === b.id);
      if (!s) return new MockRefusal('The site does not exist.');
      const { id: _id, pixel_id, ...rest } = b;
      Object.assign(s, rest);
      if (pixel_id !== undefined) s.pixel = pixel_id ? { id: pixel_id, name: db.pixels.find((p) => p.id === pixel_id)?.name ?? 'Pixel' } : null;
      return s;
    },
    '/sites/delete': (b) => {
      db.sites = db.sites.filter((s) => s.id !== b.id);
      return null;
    },
    '/sites/rotate_secret': (b) => ({ id: b.id, webhook_secret: ROTATED_SECRET }),

    '/dramas/list': (b) =>
      page(
        db.dramas.filter(
          (d) =>
            (b.site_id === undefined || d.site.id === b.site_id) &&
            (includes(d.name, b.keyword) || d.external_id.includes(b.keyword ?? '')) &&
            (!b.language || d.language === b.language) &&
            (!b.test_status || d.test_status === b.test_status) &&
            (!b.tag || d.tags.includes(b.tag)),
        ),
        b,
      ),
    '/dramas/create': (b) => {
      const site = db.sites.find((s) => s.id === b.site_id)!;
      const drama = buildDrama({ ...b, cover_url: b.cover_url ?? null, tags: b.tags ?? [], test_status: b.test_status ?? 'untested', site: { id: site.id, name: site.name } });
      db.dramas.unshift(drama);
      site.catalog_count++;
      return drama;
    },
    '/dramas/edit': (b) => {
      const d = db.dramas.find((x) => x.id === b.id);
      if (!d) return new MockRefusal('The drama does not exist.');
      const { id: _id, site_id: _site, ...rest } = b;
      Object.assign(d, rest);
      return d;
    },
    '/dramas/delete': (b) => {
      db.dramas = db.dramas.filter((d) => d.id !== b.id);
      return null;
    },
    '/dramas/import': (b) => importCheck(b, (n) => db.dramas.unshift(...Array.from({ length: n }, () => buildDrama({ site: { id: b.site_id, name: 'Site' } })))),
    '/dramas/export': () => 'xlsx',
    '/products/list': (b) =>
      page(db.products.filter((p) => (b.site_id === undefined || p.site.id === b.site_id) && (includes(p.name, b.keyword) || p.external_id.includes(b.keyword ?? '')) && (!b.tag || p.tags.includes(b.tag))), b),
    '/products/create': (b) => {
      const site = db.sites.find((s) => s.id === b.site_id)!;
      const product = buildProduct({ ...b, cover_url: b.cover_url ?? null, tags: b.tags ?? [], site: { id: site.id, name: site.name } });
      db.products.unshift(product);
      site.catalog_count++;
      return product;
    },
    '/products/edit': (b) => {
      const p = db.products.find((x) => x.id === b.id);
      if (!p) return new MockRefusal('The product does not exist.');
      const { id: _id, site_id: _site, ...rest } = b;
      Object.assign(p, rest);
      return p;
    },
    '/products/delete': (b) => {
      db.products = db.products.filter((p) => p.id !== b.id);
      return null;
    },
    '/products/import': (b) => importCheck(b, (n) => db.products.unshift(...Array.from({ length: n }, () => buildProduct({ site: { id: b.site_id, name: 'Shop' } })))),
    '/products/export': () => 'xlsx',

    '/tasks/list': (b) => page(db.tasks, b),
    '/tasks/get': (b) => {
      const task = db.tasks.find((t) => t.id === b.id);
      if (!task) return new MockRefusal('The task does not exist.');
      const polls = (db.polls.get(task.id) ?? 0) + 1;
      db.polls.set(task.id, polls);
      if (task.status === 'queued' || task.status === 'running') {
        if (polls > taskPolls) Object.assign(task, { status: 'success', progress_done: 3, progress_total: 3, message: 'Synced 3 ad accounts, 2 pages, 1 pixel', summary: { ad_accounts: 3, pages: 2, pixels: 1 }, finished_at: new Date().toISOString() });
        else Object.assign(task, { status: 'running', progress_done: polls, progress_total: 3, message: `Syncing ad account ${polls} of 3` });
      }
      return { ...task };
    },
    '/tasks/cancel': (b) => {
      const task = db.tasks.find((t) => t.id === b.id);
      if (!task) return new MockRefusal('The task does not exist.');
      task.status = 'cancelled';
      return task;
    },
  };

  /**
   * Catalog file checks: a file whose text contains "bad" has two row errors; any other is valid
   * with 2 new rows and 1 update. Only a real run writes.
   */
  function importCheck(b: { content_base64: string; dry_run?: boolean }, write: (n: number) => void) {
    const text = atob(b.content_base64);
    if (text.includes('bad'))
      return {
        created: 0,
        updated: 0,
        errors: [
          { row: 3, field: 'episode_count', message: 'Must be a whole number from 1 to 10000' },
          { row: 5, field: 'name', message: 'Required' },
        ],
      };
    if (!b.dry_run) write(2);
    return { created: 2, updated: 1, errors: [] };
  }

  return { db, handlers };
}
