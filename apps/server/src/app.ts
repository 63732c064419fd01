import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { CODE_ERROR, formatMessage } from '@ads/contracts';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { DRAMAS } from './db/demo-assets.ts';
import { demoCoverSvg } from './db/demo-covers.ts';
import { adAccountRoutes } from './features/ad-accounts/ad-accounts.routes.ts';
import { adDataRoutes } from './features/ad-data/ad-data.routes.ts';
import { createAdLogService } from './features/ad-data/ad-logs.service.ts';
import { createAdOperations } from './features/ad-data/ad-ops.service.ts';
import { createAdReportService } from './features/ad-data/ad-reports.service.ts';
import { createAdSync } from './features/ad-data/ad-sync.service.ts';
import { dimReportRoutes } from './features/ad-data/dim-reports.routes.ts';
import { createDimReportService } from './features/ad-data/dim-reports.service.ts';
import { createFxService } from './features/ad-data/fx.service.ts';
import { createAdAccountService } from './features/ad-accounts/ad-accounts.service.ts';
import { departmentRoutes } from './features/departments/departments.routes.ts';
import { createDepartmentService } from './features/departments/departments.service.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { materialRoutes } from './features/materials/materials.routes.ts';
import { createMaterialService } from './features/materials/materials.service.ts';
import { createMediaTools } from './features/materials/media.ts';
import { createMaterialStorage } from './features/materials/storage.ts';
import { createTusUploads } from './features/materials/tus.ts';
import { menuRoutes } from './features/menus/menus.routes.ts';
import { createDashboardService } from './features/overview/dashboard.service.ts';
import { notificationRoutes } from './features/notifications/notifications.routes.ts';
import { createNotificationService } from './features/notifications/notifications.service.ts';
import { overviewRoutes } from './features/overview/overview.routes.ts';
import { publishRoutes } from './features/publish/publish.routes.ts';
import { createPublishService } from './features/publish/publish.service.ts';
import { postRoutes } from './features/posts/posts.routes.ts';
import { createPostService } from './features/posts/posts.service.ts';
import { startRoutes } from './features/start/start.routes.ts';
import { createStartService } from './features/start/start.service.ts';
import { createOverviewService } from './features/overview/overview.service.ts';
import { pageRoutes } from './features/pages/pages.routes.ts';
import { createPageService } from './features/pages/pages.service.ts';
import { personalAccountRoutes } from './features/personal-accounts/personal-accounts.routes.ts';
import { createPersonalAccountService } from './features/personal-accounts/personal-accounts.service.ts';
import { pixelRoutes } from './features/pixels/pixels.routes.ts';
import { createPixelService } from './features/pixels/pixels.service.ts';
import { roleRoutes } from './features/roles/roles.routes.ts';
import { createRuleEvaluator } from './features/rules/rules.evaluator.ts';
import { ruleRoutes } from './features/rules/rules.routes.ts';
import { createRuleService } from './features/rules/rules.service.ts';
import { createRoleService } from './features/roles/roles.service.ts';
import { sessionRoutes } from './features/session/session.routes.ts';
import { createSessionService } from './features/session/session.service.ts';
import { orderReportRoutes } from './features/orders/order-reports.routes.ts';
import { createOrderReportService } from './features/orders/order-reports.service.ts';
import { orderRoutes, orderWebhookRoutes } from './features/orders/orders.routes.ts';
import { createOrderService } from './features/orders/orders.service.ts';
import { catalogWithSimulator, createSimulatorSites, type SimulatorSites } from './features/orders/simulator-sites.ts';
import { createCatalogService } from './features/sites/catalog.service.ts';
import { siteRoutes } from './features/sites/sites.routes.ts';
import { createSiteService } from './features/sites/sites.service.ts';
import { cronRoutes } from './features/sys-cron/sys-cron.routes.ts';
import { createCronService } from './features/sys-cron/sys-cron.service.ts';
import { userPreferenceRoutes } from './features/user-preferences/user-preferences.routes.ts';
import { createUserPreferenceService } from './features/user-preferences/user-preferences.service.ts';
import { taskRoutes } from './features/tasks/tasks.routes.ts';
import { createTaskService } from './features/tasks/tasks.service.ts';
import { userRoutes } from './features/users/users.routes.ts';
import { createUserService } from './features/users/users.service.ts';
import { jobRegistry } from './jobs/registry.ts';
import { createRecordingJobs } from './jobs/runner.ts';
import type { Jobs } from './jobs/types.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { secretBoxFor } from './lib/crypto.ts';
import { createUrlSigner } from './lib/signed-url.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { loggerOptions, registerRequestLogging, type LogStream } from './plugins/request-logging.ts';
import { docsCsp, registerSecurityHeaders } from './plugins/security-headers.ts';
import type { AdPlatformClient } from './platform/types.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  driver: 'pglite' | 'pg';
  clock?: Clock;
  /** Replaces the logger (false: none); by default it logs JSON at LOG_LEVEL to stdout, or to `logStream`. */
  logger?: FastifyServerOptions['logger'];
  logStream?: LogStream;
  /** Requests slower than this are logged at warn (default 2 s). */
  slowRequestMs?: number;
  /** The job engine (main.ts starts it); without one, runs are only recorded as queued (tests that need no runner). */
  jobs?: Jobs;
  /** The ad platform (main.ts: the Graph client, pointed at the simulator by default); without one, calls that need it say so. */
  platform?: AdPlatformClient;
  /**
   * The simulator's base URL when the ad platform is one this app drives (the built-in one): the
   * app then registers its sites there, so the simulated sites post orders to its webhook.
   */
  simulatorUrl?: string;
  /** Compare every success answer with its call's answer schema (tests; lib/endpoint.ts). */
  checkAnswers?: boolean;
}

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count becomes a function: Fastify reads a plain
 * number as "trust nobody" (a client that reaches the server directly could claim any number of
 * hops), so a count is for servers that only the proxies can reach; otherwise list the proxies.
 */
function trustProxyOption(value: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

/** Builds the Fastify instance with every route; it never listens (main.ts and tests decide). */
export async function buildApp({
  config,
  db,
  driver,
  clock = systemClock,
  logger,
  logStream,
  slowRequestMs,
  jobs = createRecordingJobs({ db, clock, registry: jobRegistry }),
  platform,
  simulatorUrl,
  checkAnswers = false,
}: AppDeps) {
  const logging = loggerOptions(config, logStream);
  const app = Fastify({
    ...logging,
    ...(logger !== undefined && { logger }),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 2 * 1024 * 1024,
    // A client that stops sending mid-request must not hold the server forever.
    requestTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Response schemas document the API; answers are checked in tests (checkAnswers), not re-validated on every call.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorate('answerMismatches', checkAnswers ? [] : null);

  // An empty JSON body means "no payload" (simple_list's payload is optional), not a parse error.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (!text.trim()) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new Error('bad json') as Error & { code: string; statusCode: number };
      err.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      err.statusCode = 400;
      done(err, undefined);
    }
  });

  const sessions = createSessionService({ db, clock, config });
  const users = createUserService({ db, clock });
  const departments = createDepartmentService({ db, clock });
  const roles = createRoleService({ db, clock });
  const preferences = createUserPreferenceService({ db, clock });
  const tasks = createTaskService({ db, jobs });
  const cron = createCronService({ db, jobs, clock, tasks });
  // Tokens and webhook secrets at rest; the key is looked up on first use (migrations run after the build).
  const secrets = secretBoxFor(db, config.tokenEncryptionKey, app.log, config.tokenEncryptionKeyPrevious);
  // The simulator reaches the webhook over loopback once the server listens (see the onListen hook below).
  let webhookBase: string | undefined;
  const simulatorSites: SimulatorSites | undefined = simulatorUrl
    ? createSimulatorSites({ db, secrets, simulatorUrl, webhookBase: () => webhookBase, timezone: config.reportTimezone, log: app.log })
    : undefined;
  const orders = createOrderService({ db, clock, secrets, reportTimezone: config.reportTimezone, log: app.log });
  // Its debounced cohort drain stops before the database closes.
  app.addHook('onClose', async () => orders.close());
  const orderReports = createOrderReportService({ db, clock, reportTimezone: config.reportTimezone });
  const sites = createSiteService({ db, clock, secrets, publicUrl: config.publicUrl, onChanged: simulatorSites && ((id) => simulatorSites.push(id)), orderHealth: orders.siteHealth });
  const catalog = simulatorSites ? catalogWithSimulator(createCatalogService({ db, clock }), db, simulatorSites) : createCatalogService({ db, clock });
  const personalAccounts = createPersonalAccountService({ db, clock, secrets, jobs, platform, publicUrl: config.publicUrl, log: app.log });
  const adAccounts = createAdAccountService({ db, clock });
  const pages = createPageService({ db, clock });
  const pixels = createPixelService({ db, clock });
  // Material files: signed URLs for <img>/<video> (the key derives from the encryption key), storage, tus uploads.
  const signer = createUrlSigner({ secrets, clock });
  const storage = createMaterialStorage(config.materials.storage);
  const media = createMediaTools(config.materials.media);
  // Which ffmpeg reads uploads matters for security updates: say so once.
  app.log.info({ ffmpeg: media.ffmpeg, ffprobe: media.ffprobe }, 'media tools');
  const materials = createMaterialService({ db, clock, jobs, storage, media, signer, reportTimezone: config.reportTimezone, workDir: path.join(config.materials.uploadDir, '.work'), log: app.log });
  const overview = createOverviewService({ db, personalAccounts, adAccounts, pages, pixels, materials, cron });
  const uploads = createTusUploads({ materials, config: config.materials, log: app.log });
  // Ad data: reports, operations (through the platform, re-reading the mirror after each write), the operation log, exchange rates.
  const adReports = createAdReportService({ db, clock, jobs, reportTimezone: config.reportTimezone });
  const adSync = platform ? createAdSync({ db, platform, clock, secrets, reportTimezone: config.reportTimezone, log: app.log }) : undefined;
  const adOps = platform && adSync ? createAdOperations({ db, clock, platform, jobs, reportTimezone: config.reportTimezone, sync: adSync }) : undefined;
  // Publishing: the wizards, schemes (their job is publish.jobs.ts) and templates.
  const publish = createPublishService({ db, clock, jobs, platform, sync: adSync, materials, reportTimezone: config.reportTimezone });
  const adLogs = createAdLogService({ db });
  const fx = createFxService({ db, clock });
  const dimReports = createDimReportService({ db, clock, reportTimezone: config.reportTimezone });
  const dashboard = createDashboardService({ db, clock, reportTimezone: config.reportTimezone, dimReports, adReports, personalAccounts, adAccounts, orders, cron });
  // Hosting rules and their notifications (issue 10): the evaluator here serves dry runs; the job acts.
  const notifications = createNotificationService({ db, clock, secrets, config, log: app.log });
  const ruleEvaluator = createRuleEvaluator({ db, clock, reportTimezone: config.reportTimezone, ops: adOps, notify: (i) => notifications.send(i), log: app.log });
  const rules = createRuleService({ db, clock, jobs, reportTimezone: config.reportTimezone, evaluator: ruleEvaluator, notifications });

  registerErrorHandler(app);
  registerRequestLogging(app, slowRequestMs);
  await registerSecurityHeaders(app, { publicUrl: config.publicUrl, webDist: config.webDist, storage: config.materials.storage });
  registerAuth(app, sessions, { signer });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: '广告投放系统 API', version: '0.1.0', description: 'Envelope { code, message, data }; see API.md.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true, transformStaticCSP: docsCsp(config.publicUrl) });

  await app.register(
    async (api) => {
      await api.register(healthRoutes(db, driver, clock.now()));
      await api.register(sessionRoutes(sessions));
      await api.register(userRoutes(users));
      await api.register(departmentRoutes(departments));
      await api.register(roleRoutes(roles));
      await api.register(menuRoutes);
      await api.register(cronRoutes(cron));
      await api.register(userPreferenceRoutes(preferences));
      await api.register(taskRoutes(tasks));
      await api.register(personalAccountRoutes(personalAccounts));
      await api.register(adAccountRoutes(adAccounts));
      await api.register(pageRoutes(pages));
      await api.register(pixelRoutes(pixels));
      await api.register(siteRoutes(sites, catalog));
      await api.register(orderWebhookRoutes(orders));
      await api.register(orderRoutes(orders));
      await api.register(orderReportRoutes(orderReports));
      await api.register(materialRoutes(materials, storage, uploads));
      await api.register(overviewRoutes(overview, dashboard));
      await api.register(uploads.routes);
      await api.register(adDataRoutes({ reports: adReports, ops: adOps, logs: adLogs, fx }));
      await api.register(dimReportRoutes(dimReports));
      await api.register(publishRoutes(publish));
      await api.register(startRoutes(createStartService({ db, clock, jobs })));
      await api.register(postRoutes(createPostService({ db, clock, jobs, materials, platform, secrets })));
      await api.register(ruleRoutes(rules));
      await api.register(notificationRoutes(notifications, rules.rulesPerChannel));
    },
    { prefix: '/api' },
  );

  // Fastify does not wait for onListen hooks: the registration's promise is kept for whoever must (tests).
  let simulatorSitesReady: Promise<void> = Promise.resolve();
  app.decorate('simulatorSitesReady', () => simulatorSitesReady);
  if (simulatorSites) {
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (!address || typeof address === 'string') return;
      const loopback = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(address.address) || address.address.startsWith('127.');
      if (!loopback) {
        app.log.warn({ address: address.address }, 'simulator: the server does not listen on loopback, so the simulated sites cannot post orders to it');
        return;
      }
      webhookBase = address.address === '::1' ? `http://[::1]:${address.port}` : `http://127.0.0.1:${address.port}`;
      simulatorSitesReady = simulatorSites.syncAll().then((r) => app.log.info(r, 'simulator: sites registered for order delivery'));
      await simulatorSitesReady;
    });
  }

  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      // Files are looked up per request, so a rebuilt web app is served without a restart.
      wildcard: true,
      index: false,
      maxAge: '1y',
      immutable: true,
      // The build writes .br/.gz beside each asset.
      preCompressed: true,
      setHeaders: (res, file) => {
        // Hashed assets are cached for good; index.html must always be fresh.
        if (file.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
      },
    });
    // '/' is the static root, a directory: without a pre-compressed variant to pick (no
    // Accept-Encoding) @fastify/static refuses it as a directory listing (403). It is the SPA.
    app.get('/', { config: { public: true } }, (_req, reply) => reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html', { cacheControl: false }));
  }

  // Covers of the DEMO=1 dramas, drawn on request (db/demo-covers.ts): no outside host needed.
  const demoDramas = new Map(DRAMAS.map(([id, name, language]) => [`${id}.svg`, { id, name, language }]));
  app.get('/demo/covers/:file', { config: { public: true } }, (req, reply) => {
    const drama = demoDramas.get((req.params as { file: string }).file);
    if (!drama) return reply.status(404).type('text/plain').send('Not found');
    // Public pictures: loadable from any address of this server (localhost, 127.0.0.1, PUBLIC_URL).
    return reply
      .header('Cache-Control', 'public, max-age=86400')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .type('image/svg+xml')
      .send(demoCoverSvg(drama.id, drama.name, drama.language));
  });

  app.setNotFoundHandler((req, reply) => {
    let url = req.url;
    try {
      url = decodeURIComponent(req.url);
    } catch {
      /* keep it raw */
    }
    if (url.startsWith('/api/') || url === '/api') {
      return reply.status(200).send({ code: CODE_ERROR, message: formatMessage('NOT_FOUND_ROUTE', req.lang ?? 'zh', { path: url.split('?')[0] }), data: null });
    }
    // Client routes (no file extension) get the SPA; missing files get a plain 404.
    const last = req.url.split('?')[0]!.split('/').pop() ?? '';
    if (hasWeb && (req.method === 'GET' || req.method === 'HEAD') && !last.includes('.')) {
      // cacheControl: false, or the static defaults (a year, immutable) replace no-cache on the page.
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html', { cacheControl: false });
    }
    return reply.status(404).type('text/plain').send('Not found');
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
