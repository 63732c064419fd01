import type { AddressInfo } from 'node:net';
import { SimClock, type ClockState } from './clock.ts';
import { defaultSettings } from './config.ts';
import { controlRoutes } from './control/routes.ts';
import { DeliveryModel } from './delivery/model.ts';
import { adEffectiveStatus } from './delivery/status.ts';
import { errors, newTraceId } from './errors.ts';
import { FaultInjector } from './faults.ts';
import type { Sim } from './graph/context.ts';
import { NodeRegistry } from './graph/node.ts';
import { createPipeline, splitVersion, type GraphRequest, type GraphResponse } from './graph/pipeline.ts';
import { RateLimiter } from './limits/rate-limiter.ts';
import { accountNode } from './routes/ad-accounts.ts';
import { adNode, adsEdge, createAd } from './routes/ads.ts';
import { adsetNode, adsetsEdge, createAdSet } from './routes/adsets.ts';
import { businessNode } from './routes/businesses.ts';
import { accountCampaignsEdge, campaignNode } from './routes/campaigns.ts';
import { accountCreativesEdge, creativeNode } from './routes/creatives.ts';
import { accountImagesEdge, imageNode } from './routes/images.ts';
import { insightsEdge, reportRunNode } from './routes/insights.ts';
import { oauthHandlers, registerOAuthDialog } from './routes/oauth.ts';
import { pageNode, postNode } from './routes/pages.ts';
import { accountPixelsEdge, pixelNode } from './routes/pixels.ts';
import { asyncBatch, asyncSessionNode } from './routes/async-batch.ts';
import { batch, multiIdRead } from './routes/root.ts';
import { userNode } from './routes/users.ts';
import { accountVideosEdge, videoNode } from './routes/videos.ts';
import { buildHttpServer } from './server.ts';
import type { AdAccountRecord, AdRecord, AdSetRecord, CampaignRecord, SimSettings, SimState } from './store/state.ts';
import { SnapshotFile } from './store/persistence.ts';
import { emptyState, Store } from './store/store.ts';
import { TokenService } from './tokens.ts';
import { OrderDispatcher } from './webhooks/dispatcher.ts';
import { normaliseSite } from './webhooks/sites.ts';

export interface SimulatorOptions {
  /** 0 = a random free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1: the control API has no authentication. */
  host?: string;
  /** Directory for the JSON snapshot; in-memory only when omitted. */
  dataDir?: string;
  /** Seed of the delivery model; the same seed and history give the same numbers. Default 1. */
  seed?: number;
  appId?: string;
  appSecret?: string;
  /** Sim time to start at when there is no snapshot (ISO or epoch ms). Default: now. */
  startTime?: string | number;
  /** Sim ms per real ms (0 = frozen until moved through the control API). Default 1. */
  speed?: number;
  /** Setting overrides applied on start (e.g. a short review delay in tests). */
  settings?: Partial<Omit<SimSettings, 'rate_limits'>>;
  /** Fastify log level, or 'silent' (default). */
  logLevel?: string;
  /** Real-time interval of the order webhook dispatcher in ms (0 = only on /__sim/orders/flush). */
  orderIntervalMs?: number;
}

export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:4010` (Graph calls go to `${url}/v25.0/…`). */
  url: string;
  port: number;
  appId: string;
  appSecret: string;
  /** Current sim time (epoch ms). */
  now(): number;
  /** Writes the snapshot now (a no-op without a data dir). */
  flush(): void;
  close(): Promise<void>;
}

interface Snapshot {
  format: 'meta-sim/1';
  clock: ClockState & { savedAtRealMs: number };
  state: SimState;
}

function restoreState(saved: SimState): SimState {
  // Settings added in later versions get their defaults.
  const sites = Object.fromEntries(Object.entries(saved.sites ?? {}).map(([id, site]) => [id, normaliseSite(site)]));
  const defaults = defaultSettings();
  const rateLimits = { ...defaults.rate_limits, ...saved.settings?.rate_limits };
  return { ...emptyState(), ...saved, sites, settings: { ...defaults, ...saved.settings, rate_limits: rateLimits } };
}

/** Starts the Graph API simulator on a real HTTP port. */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const host = opts.host ?? '127.0.0.1';
  let snapshotFile: SnapshotFile | undefined;
  let clock: SimClock;
  let state: SimState;

  let serialise = () => '';
  if (opts.dataDir) snapshotFile = new SnapshotFile(opts.dataDir, () => serialise());
  const saved = snapshotFile?.read() as Snapshot | undefined;
  if (saved && saved.format === 'meta-sim/1') {
    state = restoreState(saved.state);
    clock = SimClock.restore(saved.clock);
  } else {
    state = emptyState();
    const start = opts.startTime === undefined ? Date.now() : typeof opts.startTime === 'number' ? opts.startTime : Date.parse(opts.startTime);
    if (Number.isNaN(start)) throw new Error(`meta-sim: invalid startTime ${String(opts.startTime)}`);
    clock = SimClock.startingAt(start, opts.speed ?? 1);
  }
  if (opts.speed !== undefined && saved) clock.setSpeed(opts.speed);
  Object.assign(state.settings, opts.settings ?? {});

  const store = new Store(state);
  serialise = () => JSON.stringify({ format: 'meta-sim/1', clock: clock.snapshot(), state: store.state } satisfies Snapshot);
  if (snapshotFile) {
    const file = snapshotFile;
    store.onChange(() => file.schedule());
    clock.onChange(() => file.schedule());
  }

  const appId = opts.appId ?? '1234567890123456';
  const appSecret = opts.appSecret ?? 'meta-sim-app-secret';
  const seed = opts.seed ?? 1;
  let baseUrl = '';
  const logger = { warn: (_o: unknown, _m?: string) => {}, error: (_o: unknown, _m?: string) => {} };

  // Active ads raise an account's quotas; counting them on every call would be O(ads).
  const activeAdsCache = new Map<string, { at: number; count: number }>();
  const activeAds = (accountId: string) => {
    const now = clock.now();
    const hit = activeAdsCache.get(accountId);
    if (hit && now - hit.at < 60_000) return hit.count;
    const count = Object.values(store.state.ads).filter((ad) => ad.account_id === accountId && adEffectiveStatus(store, ad, now) === 'ACTIVE').length;
    activeAdsCache.set(accountId, { at: now, count });
    return count;
  };

  const sim: Sim = {
    store,
    clock,
    seed,
    appId,
    appSecret,
    tokens: new TokenService(store, clock, appId, appSecret),
    limits: new RateLimiter(() => store.state.settings.rate_limits, activeAds),
    faults: new FaultInjector(),
    delivery: new DeliveryModel(store, seed),
    baseUrl: () => baseUrl,
    log: logger,
  };

  const registry = new NodeRegistry();
  registry.add(userNode(registry));
  registry.add(businessNode(registry));
  registry.add(pageNode(registry));
  registry.add(postNode());
  registry.add(pixelNode(registry));
  registry.add(imageNode());
  registry.add(videoNode());
  registry.add(creativeNode());
  registry.add(reportRunNode());
  registry.add(asyncSessionNode());
  registry.add(
    accountNode(registry, {
      campaigns: accountCampaignsEdge(registry),
      adsets: adsetsEdge<AdAccountRecord>(registry, (a) => ({ accountId: a.id }), createAdSet),
      ads: adsEdge<AdAccountRecord>(registry, (a) => ({ accountId: a.id }), createAd),
      adcreatives: accountCreativesEdge(registry),
      adimages: accountImagesEdge(registry),
      advideos: accountVideosEdge(registry),
      adspixels: accountPixelsEdge(registry),
      insights: insightsEdge<AdAccountRecord>((a) => ({ kind: 'adaccount', id: a.id }), (a) => a.id),
    }),
  );
  registry.add(
    campaignNode(registry, {
      adsets: adsetsEdge<CampaignRecord>(registry, (c) => ({ campaignId: c.id })),
      ads: adsEdge<CampaignRecord>(registry, (c) => ({ campaignId: c.id })),
      insights: insightsEdge<CampaignRecord>((c) => ({ kind: 'campaign', id: c.id }), (c) => c.account_id),
    }),
  );
  registry.add(
    adsetNode(registry, {
      ads: adsEdge<AdSetRecord>(registry, (s) => ({ adsetId: s.id })),
      insights: insightsEdge<AdSetRecord>((s) => ({ kind: 'adset', id: s.id }), (s) => s.account_id),
    }),
  );
  registry.add(adNode(registry, { insights: insightsEdge<AdRecord>((ad) => ({ kind: 'ad', id: ad.id }), (ad) => ad.account_id) }));

  /** A batch item: faults apply per item; a hang or drop shows as `null`, as on the Graph API. */
  const runBatchItem = async (request: GraphRequest): Promise<GraphResponse | null> => {
    let rest: string;
    try {
      rest = splitVersion(request.path).rest;
    } catch {
      rest = request.path;
    }
    if (rest === '/' && request.method === 'POST') {
      const traceId = newTraceId();
      return { status: 400, headers: {}, body: errors.invalidParameter('Batch requests cannot be nested').toBody(traceId) };
    }
    const effect = sim.faults.take(request.method, rest);
    if (effect) {
      if (effect.latencyMs > 0) await new Promise((r) => setTimeout(r, effect.latencyMs));
      if (effect.kind === 'drop' || effect.kind === 'timeout') return null;
      if (effect.kind === 'apply_then_drop') {
        // Applied, answer lost: the item shows as not run, but its work is done.
        await pipeline.handle(request);
        return null;
      }
      if (effect.kind === 'error') {
        const traceId = newTraceId();
        return { status: effect.error.httpStatus, headers: { 'x-fb-trace-id': traceId }, body: effect.error.toBody(traceId) };
      }
    }
    return pipeline.handle(request);
  };
  const runBatch = batch(runBatchItem);
  const runAsyncBatch = asyncBatch(runBatchItem);
  const pipeline = createPipeline(sim, registry, oauthHandlers, {
    get: multiIdRead(registry),
    post: (ctx, request) => (ctx.params.has('asyncbatch') ? runAsyncBatch(ctx, request) : runBatch(ctx, request)),
  });

  const orders = new OrderDispatcher(sim);
  const app = await buildHttpServer({
    sim,
    pipeline,
    logLevel: opts.logLevel ?? 'silent',
    plugins: [
      (instance) => registerOAuthDialog(instance, sim),
      controlRoutes({
        sim,
        orders,
        onReset: () => {
          sim.delivery.clearCache();
          activeAdsCache.clear();
          // Delivery history changed: the sites' events are generated again from their cursors.
          orders.resetRuntimes();
        },
      }),
    ],
  });
  logger.warn = (o, m) => app.log.warn(o, m);
  logger.error = (o, m) => app.log.error(o, m);

  await app.listen({ port: opts.port ?? 4010, host });
  const address = app.server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${hostPart}:${address.port}`;
  if (opts.orderIntervalMs !== 0) orders.start(opts.orderIntervalMs ?? 1000);

  let closed = false;
  return {
    url: baseUrl,
    port: address.port,
    appId,
    appSecret,
    now: () => clock.now(),
    flush: () => snapshotFile?.flush(),
    async close() {
      if (closed) return;
      closed = true;
      await orders.stop();
      await app.close();
      snapshotFile?.close();
    },
  };
}
