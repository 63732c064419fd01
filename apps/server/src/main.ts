import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemoAds } from './db/demo-ads.ts';
import { refreshDemoCovers, seedDemoAssets } from './db/demo-assets.ts';
import { seedDemoMaterials } from './db/demo-materials.ts';
import { seedDemoCompany } from './db/demo.ts';
import { loginGuide } from './db/login-guide.ts';
import { seedInitialUsers, type SeededUser } from './db/seed.ts';
import { jobRegistry } from './jobs/registry.ts';
import { createJobs } from './jobs/runner.ts';
import { startAdPlatform, type AdPlatformRuntime } from './lib/ad-platform.ts';
import { systemClock } from './lib/clock.ts';
import { prepareSecrets } from './lib/crypto.ts';

/** Loads config, opens and migrates the database, seeds the first users, serves until a signal. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // The platform client and the engine log through the app's logger, which exists only once the app is built.
  const built: { app?: Awaited<ReturnType<typeof buildApp>> } = {};
  const logVia = {
    debug: (o: object, m?: string) => built.app?.log.debug(o, m),
    info: (o: object, m?: string) => built.app?.log.info(o, m),
    warn: (o: object, m?: string) => built.app?.log.warn(o, m),
    error: (o: object, m?: string) => built.app?.log.error(o, m),
  };
  let platform: AdPlatformRuntime;
  try {
    // The Graph API, or the built-in simulator when META_GRAPH_URL is empty (after the data dir lock: it keeps its state there).
    platform = await startAdPlatform(config, logVia);
  } catch (err) {
    await database.close();
    throw new Error(`The ad platform could not start: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  // The engine logs through the app's logger too; buildApp needs the engine first, and the engine logs only once started.
  const jobs = createJobs({
    db: database.db,
    platform: platform.client,
    clock: systemClock,
    config,
    registry: jobRegistry,
    log: logVia,
    // PGlite has one owner (the DATA_DIR lock): whatever is active when it starts was left by a crash.
    options: { reclaim: database.driver === 'pglite' ? 'all-at-start' : 'heartbeat' },
  });
  const app = await buildApp({ config, db: database.db, driver: database.driver, jobs, platform: platform.client, simulatorUrl: platform.simulatorUrl });
  built.app = app;
  const log = app.log;
  for (const note of platform.notes) log[note.level]({ url: note.url }, note.msg);
  // For the login guide printed once the server listens.
  let guideSeeded: SeededUser[] = [];
  let demoPasswordCreated: string | null = null;
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length) log.info({ applied }, 'migrations applied');
    const seeded = await seedInitialUsers(database.db, { adminPassword: config.initAdminPassword, managerPassword: config.initManagerPassword });
    for (const s of seeded) {
      // Printed once, on the first start only: the operator must note it now.
      const line = s.generated ? `Initial account "${s.account}" created with password: ${s.password}` : `Initial account "${s.account}" created with the configured password`;
      process.stdout.write(`\n  ${line}\n\n`);
    }
    if (config.demo) {
      const demo = await seedDemoCompany(database.db, config.demoPassword);
      if (demo) {
        process.stdout.write(`\n  Demo company created: staff ${demo.accounts.join(', ')} share the password: ${config.demoPassword ? '(DEMO_PASSWORD)' : demo.password}\n\n`);
        if (!config.demoPassword) demoPasswordCreated = demo.password;
      }
    }
    guideSeeded = seeded;
    // Moves secrets to TOKEN_ENCRYPTION_KEY when it is newly set (dropping a generated key), then
    // resolves the key now (and warns when it is generated), not at the first connect.
    await prepareSecrets(database.db, config, log);
  } catch (err) {
    log.error({ err }, 'database preparation failed');
    await platform.close();
    await database.close();
    process.exit(1);
  }
  try {
    // After migrations: pg-boss installs or migrates its own schema, then queues and schedules are set up.
    await jobs.start();
    if (!config.jobs.enabled && database.driver === 'pglite') log.warn({}, 'JOBS_ENABLED=false with the embedded database: no process will run background jobs');
  } catch (err) {
    log.error({ err }, 'the job engine could not start');
    await platform.close();
    await database.close();
    process.exit(1);
  }
  if (config.demo) {
    if (!platform.simulatorUrl) log.warn({ graphUrl: platform.graphUrl }, 'DEMO=1: the Graph API is not a simulator, so no demo personal account is created');
    else {
      try {
        const added = await seedDemoAssets({ db: database.db, clock: systemClock, config, jobs, platform: platform.client, simulatorUrl: platform.simulatorUrl, log });
        if (added) process.stdout.write(`\n  Demo assets created: ${added}\n\n`);
        await refreshDemoCovers(database.db, config.publicUrl);
        const library = await seedDemoMaterials({ db: database.db, clock: systemClock, config, jobs, log });
        if (library) process.stdout.write(`\n  Demo materials created: ${library}\n\n`);
      } catch (err) {
        // The app is usable without them; the next start tries again.
        log.error({ err }, 'DEMO=1: the demo assets could not be created');
      }
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      // Running jobs get time to finish (then their signal is aborted) while HTTP drains; both before the database closes.
      await Promise.all([app.close(), jobs.stop()]);
      await platform.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info({ driver: database.driver, dataDir: config.databaseUrl ? undefined : config.dataDir }, `广告投放系统 listening on http://localhost:${config.port}`);
  // PORT=0 (tests) picks a free port: name the one taken.
  const url = config.port === 0 ? `http://localhost:${(app.server.address() as AddressInfo).port}` : config.publicUrl;
  process.stdout.write(
    await loginGuide(database.db, {
      url,
      seeded: guideSeeded,
      initAdminPasswordSet: Boolean(config.initAdminPassword),
      initManagerPasswordSet: Boolean(config.initManagerPassword),
      demo: config.demo,
      demoPasswordCreated,
      demoPasswordSet: Boolean(config.demoPassword),
    }),
  );
  // The demo campaigns come once the server listens and the simulator knows the sites (app.ts
  // registers them on listen): their back-dating makes those sites send 30 days of orders.
  if (config.demo && platform.simulatorUrl) {
    try {
      await app.simulatorSitesReady();
      const ads = await seedDemoAds({ db: database.db, clock: systemClock, config, jobs, simulatorUrl: platform.simulatorUrl, log });
      if (ads) process.stdout.write(`\n  Demo campaigns created: ${ads}\n\n`);
    } catch (err) {
      // The app is usable without them; the next start tries again.
      log.error({ err }, 'DEMO=1: the demo campaigns could not be created');
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`\n${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
