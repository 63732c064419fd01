import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Sim } from '../graph/context.ts';
import { parseGraphTime } from '../time.ts';
import { SITE_FAULTS, type OrderDispatcher, type SiteFault } from '../webhooks/dispatcher.ts';
import { buildSite, siteView } from '../webhooks/sites.ts';
import { truthOrders } from '../webhooks/truth.ts';
import { ControlError } from './assets.ts';

// The company's sites under /__sim/sites (README.md "Order webhook"): the app registers,
// updates and removes its sites; tests read what was sent and inject faults.

type Params = { id: string };

export function registerSiteRoutes(app: FastifyInstance, sim: Sim, orders: OrderDispatcher): void {
  const store = sim.store;
  const find = (id: string) => {
    const site = store.state.sites[id];
    if (!site) throw new ControlError(`unknown site ${id}`, 404);
    return site;
  };
  const view = (id: string) => ({ ...siteView(find(id)), pending_events: orders.pendingCount(id), faults: orders.faults(id) });
  const save = (site: ReturnType<typeof buildSite>) => {
    store.state.sites[site.id] = site;
    store.changed();
    // New settings (domain, catalog, currency…) apply to every event not yet delivered.
    orders.resetRuntimes(site.id);
    return view(site.id);
  };

  app.get('/__sim/sites', async () => ({ data: Object.keys(store.state.sites).map(view) }));
  app.get('/__sim/sites/:id', async (req) => view((req.params as Params).id));

  app.post('/__sim/sites', async (req) => {
    const b = req.body as Record<string, unknown> | undefined;
    const id = b && typeof b === 'object' && b.id !== undefined ? String(b.id) : randomUUID();
    if (store.state.sites[id]) throw new ControlError(`site ${id} exists (PUT /__sim/sites/${id} replaces it)`, 409);
    return save(buildSite(req.body ?? {}, 'create', sim.clock.now(), undefined, id));
  });

  app.put('/__sim/sites/:id', async (req) => {
    const { id } = req.params as Params;
    return save(buildSite(req.body ?? {}, 'replace', sim.clock.now(), store.state.sites[id], id));
  });

  app.patch('/__sim/sites/:id', async (req) => {
    const { id } = req.params as Params;
    return save(buildSite(req.body ?? {}, 'patch', sim.clock.now(), find(id), id));
  });

  app.delete('/__sim/sites/:id', async (req) => {
    const { id } = req.params as Params;
    const existed = Boolean(store.state.sites[id]);
    delete store.state.sites[id];
    orders.forget(id);
    store.changed();
    return { success: true, deleted: existed };
  });

  app.get('/__sim/sites/:id/deliveries', async (req) => {
    const { id } = req.params as Params;
    find(id);
    const raw = (req.query as Record<string, string | undefined>).limit;
    const limit = raw === undefined ? 50 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new ControlError('limit must be an integer from 1 to 200');
    return { data: orders.deliveries(id, limit), stats: find(id).stats };
  });

  app.get('/__sim/sites/:id/orders', async (req) => {
    const { id } = req.params as Params;
    const site = find(id);
    const q = req.query as Record<string, string | undefined>;
    const time = (name: string, fallback: number) => {
      if (q[name] === undefined) return fallback;
      const ms = parseGraphTime(q[name]);
      if (ms === undefined) throw new ControlError(`${name} must be an ISO-8601 instant or unix seconds`);
      return ms;
    };
    const int = (name: string, fallback: number, max: number) => {
      const n = q[name] === undefined ? fallback : Number(q[name]);
      if (!Number.isInteger(n) || n < 0 || n > max) throw new ControlError(`${name} must be an integer from 0 to ${max}`);
      return n;
    };
    const since = time('since', 0);
    const until = time('until', Number.MAX_SAFE_INTEGER);
    if (until <= since) throw new ControlError('until must be after since');
    return truthOrders(sim, site, { since, until, limit: int('limit', 1000, 100_000), offset: int('offset', 0, 10_000_000) }, (key) => orders.ledgerStatus(id, key));
  });

  app.get('/__sim/sites/:id/faults', async (req) => {
    const { id } = req.params as Params;
    find(id);
    return orders.faults(id);
  });
  app.post('/__sim/sites/:id/faults', async (req) => {
    const { id } = req.params as Params;
    find(id);
    const b = (req.body ?? {}) as Record<string, unknown>;
    const add: Partial<Record<SiteFault, number>> = {};
    for (const [key, value] of Object.entries(b)) {
      if (!(SITE_FAULTS as readonly string[]).includes(key)) throw new ControlError(`unknown fault ${key} (${SITE_FAULTS.join(', ')})`);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1000) throw new ControlError(`${key} must be a count from 1 to 1000`);
      add[key as SiteFault] = value;
    }
    if (Object.keys(add).length === 0) throw new ControlError(`give a count for one of ${SITE_FAULTS.join(', ')}`);
    return orders.addFaults(id, add);
  });
  app.delete('/__sim/sites/:id/faults', async (req) => {
    const { id } = req.params as Params;
    find(id);
    orders.clearFaults(id);
    return { success: true };
  });

  app.post('/__sim/orders/flush', async (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    for (const key of ['until_idle', 'retry_now']) if (b[key] !== undefined && typeof b[key] !== 'boolean') throw new ControlError(`${key} must be a boolean`);
    return orders.flush({ untilIdle: b.until_idle === true, retryNow: b.retry_now === true });
  });
}
