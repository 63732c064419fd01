import type { Db } from '../../db/database.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { currencyOffset } from '../../platform/currency.ts';
import { webhookPath } from '../sites/sites.service.ts';

// With the built-in simulator (or one started for tests), the app registers its sites there
// itself (packages/meta-sim README "Order webhook"), so the simulated sites post their orders to
// this app's webhook, signed with the site's current secret: when a site or its catalog changes,
// when one is deleted, and at start for all of them. A simulator that cannot be reached never
// fails the user's request: it is logged, and the next change or start brings it up to date.

export interface SimulatorSitesDeps {
  db: Db;
  secrets: SecretBox;
  /** Base URL of the simulator (its control API is under /__sim). */
  simulatorUrl: string;
  /** Where the simulator reaches this app (loopback), once it listens; undefined before. */
  webhookBase: () => string | undefined;
  /** Sites' clocks in the simulator (the offsets of paid_at). */
  timezone: string;
  log?: { warn(obj: object, msg?: string): void; info?(obj: object, msg?: string): void };
  fetchTimeoutMs?: number;
}

export interface SimulatorSites {
  /** Registers (or replaces) one site, or removes it when it was deleted. */
  push(siteId: number): Promise<void>;
  remove(siteId: number): Promise<void>;
  /** Every live site registered, and this app's registrations of deleted sites removed. */
  syncAll(): Promise<{ registered: number; removed: number }>;
}

/** A price in major units as the simulator reads it ("4.99", JPY "1500"). */
const major = (price: number, currency: string) => (currencyOffset(currency) === 1 ? String(Math.round(price)) : (Math.round(price * 100) / 100).toFixed(2));

export function createSimulatorSites({ db, secrets, simulatorUrl, webhookBase, timezone, log, fetchTimeoutMs = 5000 }: SimulatorSitesDeps): SimulatorSites {
  const control = async (method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown) => {
    const res = await fetch(`${simulatorUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(fetchTimeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as unknown) : null;
  };

  /** The simulator's view of a site: identity, where to post, secret, domain, link template, catalog. */
  async function registration(siteId: number, base: string) {
    const site = await db
      .selectFrom('sites')
      .select(['id', 'name', 'domain', 'platform', 'link_template', 'webhook_secret_enc'])
      .where('id', '=', siteId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!site) return null;
    const [dramas, products] = await Promise.all([
      db.selectFrom('dramas').select(['external_id', 'episode_count']).where('site_id', '=', siteId).where('deleted_at', 'is', null).orderBy('id').limit(1000).execute(),
      db.selectFrom('products').select(['external_id', 'price', 'currency']).where('site_id', '=', siteId).where('deleted_at', 'is', null).orderBy('id').limit(1000).execute(),
    ]);
    // A shop site's currency is its products' (the most common one); the others' prices cannot be given in it.
    const counts = new Map<string, number>();
    for (const p of products) counts.set(p.currency, (counts.get(p.currency) ?? 0) + 1);
    const currency = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'USD';
    return {
      name: site.name.slice(0, 200),
      webhook_url: `${base}${webhookPath(site.id)}`,
      secret: await secrets.decrypt(site.webhook_secret_enc),
      domain: site.domain,
      kind: site.platform === 'ec' ? 'shop' : 'drama',
      currency,
      timezone,
      link_template: site.link_template,
      dramas: site.platform === 'dj' ? dramas.map((d) => ({ external_id: d.external_id, episodes: Math.min(10_000, Math.max(1, d.episode_count)) })) : [],
      products:
        site.platform === 'ec'
          ? products.filter((p) => p.currency === currency && Number(p.price) > 0).map((p) => ({ external_id: p.external_id, price: major(Number(p.price), currency) }))
          : [],
    };
  }

  const warn = (err: unknown, siteId: number | undefined, msg: string) => log?.warn({ err: err instanceof Error ? err.message : String(err), siteId }, msg);

  async function push(siteId: number) {
    const base = webhookBase();
    if (!base) return;
    try {
      const body = await registration(siteId, base);
      if (body) await control('PUT', `/__sim/sites/${siteId}`, body);
      else await control('DELETE', `/__sim/sites/${siteId}`);
    } catch (err) {
      warn(err, siteId, 'simulator: the site could not be registered');
    }
  }

  return {
    push,
    async remove(siteId) {
      try {
        await control('DELETE', `/__sim/sites/${siteId}`);
      } catch (err) {
        warn(err, siteId, 'simulator: the site could not be removed');
      }
    },
    async syncAll() {
      const base = webhookBase();
      if (!base) return { registered: 0, removed: 0 };
      const live = await db.selectFrom('sites').select('id').where('deleted_at', 'is', null).orderBy('id').execute();
      for (const s of live) await push(s.id);
      let removed = 0;
      try {
        // Registrations pointing at this app's webhook whose site is gone here.
        const listed = (await control('GET', '/__sim/sites')) as { data: { id: string; webhook_url: string }[] };
        const ids = new Set(live.map((s) => String(s.id)));
        for (const s of listed.data) {
          if (!ids.has(s.id) && s.webhook_url.startsWith(`${base}/api/orders/webhook/`)) {
            await control('DELETE', `/__sim/sites/${encodeURIComponent(s.id)}`);
            removed += 1;
          }
        }
      } catch (err) {
        warn(err, undefined, 'simulator: the sites could not be listed');
      }
      return { registered: live.length, removed };
    },
  };
}

type CatalogLike = {
  createDrama(ctx: never, body: never): Promise<{ site: { id: number } }>;
  editDrama(ctx: never, body: never): Promise<{ site: { id: number } }>;
  removeDrama(ctx: never, id: number): Promise<void>;
  importDramas(ctx: never, body: { site_id: number; dry_run?: boolean }): Promise<unknown>;
  createProduct(ctx: never, body: never): Promise<{ site: { id: number } }>;
  editProduct(ctx: never, body: never): Promise<{ site: { id: number } }>;
  removeProduct(ctx: never, id: number): Promise<void>;
  importProducts(ctx: never, body: { site_id: number; dry_run?: boolean }): Promise<unknown>;
};

/** The catalog service, telling the simulator about the sites whose dramas or products changed. */
export function catalogWithSimulator<T extends CatalogLike>(catalog: T, db: Db, sim: SimulatorSites): T {
  const siteOf = async (table: 'dramas' | 'products', id: number) => (await db.selectFrom(table).select('site_id').where('id', '=', id).executeTakeFirst())?.site_id;
  const pushAll = async (ids: (number | undefined)[]) => {
    for (const id of new Set(ids)) if (id !== undefined) await sim.push(id);
  };
  const edit =
    (table: 'dramas' | 'products', fn: (ctx: never, body: never) => Promise<{ site: { id: number } }>) =>
    async (ctx: never, body: never) => {
      const before = await siteOf(table, (body as { id: number }).id);
      const after = await fn(ctx, body);
      await pushAll([before, after.site.id]);
      return after;
    };
  const create = (fn: (ctx: never, body: never) => Promise<{ site: { id: number } }>) => async (ctx: never, body: never) => {
    const after = await fn(ctx, body);
    await sim.push(after.site.id);
    return after;
  };
  const remove = (table: 'dramas' | 'products', fn: (ctx: never, id: number) => Promise<void>) => async (ctx: never, id: number) => {
    const site = await siteOf(table, id);
    await fn(ctx, id);
    await pushAll([site]);
  };
  const importing = (fn: (ctx: never, body: { site_id: number; dry_run?: boolean }) => Promise<unknown>) => async (ctx: never, body: { site_id: number; dry_run?: boolean }) => {
    const result = await fn(ctx, body);
    if (!body.dry_run) await sim.push(body.site_id);
    return result;
  };
  return {
    ...catalog,
    createDrama: create(catalog.createDrama),
    editDrama: edit('dramas', catalog.editDrama),
    removeDrama: remove('dramas', catalog.removeDrama),
    importDramas: importing(catalog.importDramas),
    createProduct: create(catalog.createProduct),
    editProduct: edit('products', catalog.editProduct),
    removeProduct: remove('products', catalog.removeProduct),
    importProducts: importing(catalog.importProducts),
  } as T;
}
