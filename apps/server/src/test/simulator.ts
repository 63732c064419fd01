import { startSimulator, type Simulator } from '@ads/meta-sim';
import { createMetaPlatformClient } from '../platform/meta-adapter.ts';
import type { AdPlatformClient } from '../platform/types.ts';

/** Sim time the test apps' clock starts at too (build-test-app.ts), so token expiries agree. */
export const TEST_START = '2026-11-01T08:00:00Z';

export interface SimUser {
  user: { id: string; name: string };
  access_token: string;
  expires_at: string | null;
  ad_accounts: { id: string; account_id: string; currency: string; timezone_name: string }[];
  pages: { id: string; name: string; access_token: string }[];
  pixels: { id: string; name: string }[];
}

export interface TestSimulator {
  sim: Simulator;
  url: string;
  /** The Graph client the app uses, pointed at this simulator, retrying fast. */
  platform: AdPlatformClient;
  control<T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** A test user with a token and assets (POST /__sim/users). */
  createUser(input?: Record<string, unknown>): Promise<SimUser>;
  /** Moves the simulator clock ("3d", "2h", seconds). */
  advance(duration: string | number): Promise<void>;
  close(): Promise<void>;
}

/** A simulator on a random port with a frozen clock (tests move it), reached over real HTTP. */
export async function startTestSimulator(opts: { fetch?: typeof fetch; pageVideoResumableBytes?: number } = {}): Promise<TestSimulator> {
  const sim = await startSimulator({ port: 0, startTime: TEST_START, speed: 0, orderIntervalMs: 0 });
  const control = async <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sim.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json as T;
  };
  const platform = createMetaPlatformClient(
    { graphUrl: sim.url, apiVersion: 'v25.0', appId: sim.appId, appSecret: sim.appSecret, requestTimeoutMs: 10_000, maxConcurrencyPerAccount: 4, maxConcurrencyPerToken: 8 },
    // Transient faults are retried within milliseconds, so tests do not wait on real backoff.
    { tuning: { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20 }, ...opts },
  );
  return {
    sim,
    url: sim.url,
    platform,
    control,
    createUser: (input = {}) => control<SimUser>('POST', '/__sim/users', input),
    advance: (duration) => control('POST', '/__sim/clock', { advance: duration }),
    close: () => sim.close(),
  };
}
