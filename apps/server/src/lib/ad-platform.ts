import path from 'node:path';
import { startSimulator } from '@ads/meta-sim';
import type { Config } from '../config.ts';
import { createMetaPlatformClient } from '../platform/meta-adapter.ts';
import type { AdPlatformClient } from '../platform/types.ts';

/** Pino-compatible; Fastify's `app.log` fits. */
interface Log {
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface AdPlatformRuntime {
  client: AdPlatformClient;
  /** Base URL of the Graph API in use. */
  graphUrl: string;
  /** Control API base (`<url>/__sim/`) when the Graph API is a simulator we can drive (DEMO=1). */
  simulatorUrl: string | undefined;
  /** What was set up, for the start-up log (the logger may not exist yet while this runs). */
  notes: { level: 'info' | 'warn'; msg: string; url: string }[];
  /** Stops the built-in simulator, if this process started one. */
  close(): Promise<void>;
}

/** The state of a simulator answering at this URL (another server process of this installation), if one does. */
async function simulatorAt(url: string): Promise<{ app_id?: string } | null> {
  try {
    const res = await fetch(`${url}/__sim/state`, { signal: AbortSignal.timeout(2000) });
    return res.ok ? ((await res.json()) as { app_id?: string }) : null;
  } catch {
    return null;
  }
}

/**
 * The ad platform for this process: the Graph API at META_GRAPH_URL, or (unset) the built-in
 * simulator, started in-process on 127.0.0.1:META_SIM_PORT with its state in DATA_DIR/meta-sim,
 * running in real time. A second server process of the same installation finds the simulator
 * already listening and uses it, rather than failing on the port.
 */
export async function startAdPlatform(config: Config, log: Log): Promise<AdPlatformRuntime> {
  const meta = config.meta;
  let graphUrl = meta.graphUrl;
  let appId = meta.appId;
  let appSecret = meta.appSecret;
  let simulatorUrl: string | undefined;
  let close = async () => {};
  const notes: AdPlatformRuntime['notes'] = [];

  if (!graphUrl) {
    const url = `http://127.0.0.1:${config.metaSimPort}`;
    const running = config.metaSimPort !== 0 ? await simulatorAt(url) : null;
    if (running) {
      notes.push({ level: 'info', url, msg: 'using the Graph API simulator already running on this machine' });
      graphUrl = url;
      // Its app secret is the simulator default unless META_APP_SECRET says otherwise.
      appId ??= running.app_id ?? '1234567890123456';
      appSecret ??= 'meta-sim-app-secret';
    } else {
      const sim = await startSimulator({
        port: config.metaSimPort,
        host: '127.0.0.1',
        dataDir: path.join(config.dataDir, 'meta-sim'),
        speed: 1,
        ...(appId && { appId }),
        ...(appSecret && { appSecret }),
      });
      notes.push({ level: 'info', url: sim.url, msg: 'built-in Graph API simulator started (set META_GRAPH_URL to use the real Graph API)' });
      graphUrl = sim.url;
      appId = sim.appId;
      appSecret = sim.appSecret;
      close = () => sim.close();
    }
    simulatorUrl = graphUrl;
  } else {
    if (!appId || !appSecret) notes.push({ level: 'warn', url: graphUrl, msg: 'META_APP_ID / META_APP_SECRET are not set: connecting personal accounts (OAuth, token checks) will not work' });
    // A simulator started on its own (`npm run sim`) is still one DEMO=1 can fill.
    if (['127.0.0.1', 'localhost', '[::1]'].includes(new URL(graphUrl).hostname) && (await simulatorAt(graphUrl))) simulatorUrl = graphUrl;
  }

  const client = createMetaPlatformClient({ ...meta, graphUrl, appId, appSecret }, { log });
  return { client, graphUrl, simulatorUrl, notes, close };
}
