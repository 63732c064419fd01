import type { FastifyInstance, FastifyReply } from 'fastify';
import { defaultSettings, DEFAULT_RATE_LIMITS, DEVELOPMENT_RATE_LIMITS } from '../config.ts';
import { accountSnapshot, adSnapshot } from '../delivery/status.ts';
import { SUBCODE } from '../errors.ts';
import type { FaultRuleInput } from '../faults.ts';
import type { Sim } from '../graph/context.ts';
import type { RateLimitSettings, SimSettings } from '../store/state.ts';
import { emptyState, recordSnapshot } from '../store/store.ts';
import { formatGraphTime, parseGraphTime } from '../time.ts';
import type { OrderDispatcher } from '../webhooks/dispatcher.ts';
import { ControlError, createTestUser, type TestUserInput } from './assets.ts';
import { backdate, type BackdateInput } from './backdate.ts';
import { registerSiteRoutes } from './sites.ts';

// The control API under /__sim/ (README.md documents it). It needs no token: the server
// listens on loopback by default, and this API is for tests, demos and the app's DEMO=1.

/** A 1×1 transparent PNG: every simulated image URL serves it. */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const DURATION_RE = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function durationMs(value: unknown): number {
  if (typeof value === 'number') return value * 1000;
  const m = DURATION_RE.exec(String(value).trim());
  if (!m) throw new ControlError('advance must be seconds or a duration like "90s", "15m", "2h", "3d"');
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

function body(req: { body: unknown }): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw new ControlError('the body must be a JSON object');
  return b as Record<string, unknown>;
}

const SETTING_KEYS = [
  'review_delay_seconds',
  'video_processing_seconds',
  'video_processing_seconds_per_mb',
  'report_run_seconds',
  'video_chunk_bytes',
  'copy_sync_limit',
  'async_batch_seconds',
  'webhook_retry_base_ms',
  'webhook_max_attempts',
  'webhook_timeout_ms',
] as const;

export interface ControlDeps {
  sim: Sim;
  orders: OrderDispatcher;
  /** Called after a reset or clock jump that invalidates derived caches. */
  onReset(): void;
}

/** The /__sim/ routes as an encapsulated plugin (their error handler stays theirs). */
export function controlRoutes({ sim, orders, onReset }: ControlDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const store = sim.store;

    app.setErrorHandler((err: Error & { statusCode?: number }, req, reply: FastifyReply) => {
      if (err instanceof ControlError) return reply.code(err.status).send({ error: err.message });
      if (err instanceof RangeError || err instanceof TypeError) return reply.code(400).send({ error: err.message });
      if (err.statusCode && err.statusCode < 500) return reply.code(err.statusCode).send({ error: err.message });
      req.log.error({ err }, 'meta-sim control error');
      return reply.code(500).send({ error: 'internal error' });
    });

    const clockInfo = () => ({ now: formatGraphTime(sim.clock.now()), now_ms: sim.clock.now(), speed: sim.clock.speed });

    app.get('/__sim/state', async () => {
      const s = store.state;
      return {
        clock: clockInfo(),
        seed: sim.seed,
        app_id: sim.appId,
        counts: Object.fromEntries(
          (['users', 'tokens', 'businesses', 'ad_accounts', 'pages', 'posts', 'pixels', 'campaigns', 'adsets', 'ads', 'creatives', 'images', 'videos', 'report_runs', 'async_sessions', 'sites'] as const).map(
            (k) => [k, Object.keys(s[k]).length],
          ),
        ),
        faults: sim.faults.list().length,
        settings: s.settings,
      };
    });

    app.post('/__sim/reset', async (req) => {
      const b = body(req);
      const settings = store.state.settings;
      store.replace({ ...emptyState(), settings: b.keep_settings === false ? defaultSettings() : settings });
      sim.faults.clear();
      sim.limits.clear();
      orders.forget();
      if (b.time !== undefined) {
        const ms = parseGraphTime(b.time);
        if (ms === undefined) throw new ControlError('time must be an ISO datetime');
        if (ms > sim.clock.now()) sim.clock.set(ms);
      }
      onReset();
      return { success: true, clock: clockInfo() };
    });

    app.post('/__sim/users', async (req) => createTestUser(sim, body(req) as TestUserInput));

    app.post('/__sim/tokens', async (req) => {
      const b = body(req);
      const userId = String(b.user_id ?? '');
      if (!store.state.users[userId]) throw new ControlError(`unknown user_id ${userId}`, 404);
      const scopes = Array.isArray(b.scopes) ? b.scopes.map(String) : [];
      const expiresIn = b.expires_in === undefined ? 60 * 86_400 : Number(b.expires_in);
      if (!Number.isInteger(expiresIn) || expiresIn < 0) throw new ControlError('expires_in must be a non-negative integer (seconds; 0 = never)');
      const type = b.type === 'SYSTEM_USER' ? 'SYSTEM_USER' : 'USER';
      const token = sim.tokens.issue(userId, { type, scopes, expiresIn });
      return { access_token: token.token, expires_at: token.expires_at > 0 ? formatGraphTime(token.expires_at) : null, scopes: token.scopes };
    });

    const findToken = (b: Record<string, unknown>) => {
      const token = sim.tokens.find(String(b.token ?? ''));
      if (!token) throw new ControlError('unknown token', 404);
      return token;
    };

    app.post('/__sim/tokens/expire', async (req) => {
      sim.tokens.expire(findToken(body(req)));
      return { success: true };
    });

    app.post('/__sim/tokens/revoke', async (req) => {
      const b = body(req);
      const reasons: Record<string, number> = { logged_out: SUBCODE.tokenInvalid, password_changed: SUBCODE.tokenPasswordChanged, app_removed: SUBCODE.tokenAppRemoved };
      const reason = String(b.reason ?? 'logged_out');
      if (!(reason in reasons)) throw new ControlError(`reason must be one of ${Object.keys(reasons).join(', ')}`);
      sim.tokens.revoke(findToken(b), reasons[reason]);
      return { success: true };
    });

    app.get('/__sim/clock', async () => clockInfo());

    app.post('/__sim/clock', async (req) => {
      const b = body(req);
      if (b.set !== undefined) {
        const ms = parseGraphTime(b.set);
        if (ms === undefined) throw new ControlError('set must be an ISO datetime');
        sim.clock.set(ms);
      }
      if (b.advance !== undefined) sim.clock.advance(durationMs(b.advance));
      if (b.advance_seconds !== undefined) sim.clock.advance(Number(b.advance_seconds) * 1000);
      if (b.speed !== undefined) sim.clock.setSpeed(Number(b.speed));
      return clockInfo();
    });

    app.get('/__sim/faults', async () => ({ data: sim.faults.list().map(({ matcher: _m, ...rule }) => rule) }));
    app.post('/__sim/faults', async (req) => {
      const { matcher: _m, ...rule } = sim.faults.add(body(req) as FaultRuleInput);
      return rule;
    });
    app.delete('/__sim/faults', async () => {
      sim.faults.clear();
      return { success: true };
    });

    const account = (id: string) => {
      const a = store.account(id);
      if (!a) throw new ControlError(`unknown ad account ${id}`, 404);
      return a;
    };

    app.post('/__sim/ad-accounts/:id/disable', async (req) => {
      const a = account((req.params as { id: string }).id);
      const b = body(req);
      a.account_status = Number(b.account_status ?? 2);
      a.disable_reason = Number(b.disable_reason ?? 1);
      recordSnapshot(a.history, accountSnapshot(a, sim.clock.now()));
      store.changed();
      return { success: true };
    });

    app.post('/__sim/ad-accounts/:id/enable', async (req) => {
      const a = account((req.params as { id: string }).id);
      a.account_status = 1;
      a.disable_reason = 0;
      recordSnapshot(a.history, accountSnapshot(a, sim.clock.now()));
      store.changed();
      return { success: true };
    });

    const ad = (id: string) => {
      const found = store.state.ads[id];
      if (!found) throw new ControlError(`unknown ad ${id}`, 404);
      return found;
    };

    app.post('/__sim/ads/:id/disapprove', async (req) => {
      const a = ad((req.params as { id: string }).id);
      const now = sim.clock.now();
      a.disapproved_at = now;
      recordSnapshot(a.history, adSnapshot(a, now));
      store.changed();
      return { success: true };
    });

    app.post('/__sim/ads/:id/approve', async (req) => {
      const a = ad((req.params as { id: string }).id);
      const now = sim.clock.now();
      a.disapproved_at = undefined;
      a.review_until = Math.min(a.review_until, now);
      recordSnapshot(a.history, adSnapshot(a, now));
      store.changed();
      return { success: true };
    });

    app.post('/__sim/backdate', async (req) => {
      const result = backdate(sim, body(req) as BackdateInput);
      onReset();
      return result;
    });

    app.post('/__sim/videos/:id/fail', async (req) => {
      const v = store.state.videos[(req.params as { id: string }).id];
      if (!v) throw new ControlError('unknown video', 404);
      const message = body(req).message;
      if (message !== undefined && typeof message !== 'string') throw new ControlError('message must be a string');
      v.failed = true;
      v.error_message = message || 'Video processing failed: the file could not be decoded.';
      store.changed();
      return { success: true };
    });

    app.get('/__sim/rate-limits', async () => store.state.settings.rate_limits);
    app.put('/__sim/rate-limits', async (req) => {
      const b = body(req) as Partial<RateLimitSettings> & { preset?: 'development' | 'standard' };
      const { preset, ...rest } = b;
      const base = preset === 'development' ? DEVELOPMENT_RATE_LIMITS : preset === 'standard' ? DEFAULT_RATE_LIMITS : store.state.settings.rate_limits;
      for (const [k, v] of Object.entries(rest)) {
        if (!(k in DEFAULT_RATE_LIMITS)) throw new ControlError(`unknown rate-limit setting ${k}`);
        if (k !== 'accounts' && k !== 'tier' && !(typeof v === 'number' && v >= 0)) throw new ControlError(`${k} must be a non-negative number`);
      }
      store.state.settings.rate_limits = { ...structuredClone(base), ...rest, accounts: { ...base.accounts, ...(rest.accounts ?? {}) } };
      sim.limits.clear();
      store.changed();
      return store.state.settings.rate_limits;
    });

    app.get('/__sim/settings', async () => store.state.settings);
    app.put('/__sim/settings', async (req) => {
      const b = body(req) as Partial<SimSettings>;
      for (const [k, v] of Object.entries(b)) {
        if (k === 'require_appsecret_proof') store.state.settings.require_appsecret_proof = Boolean(v);
        else if (k === 'delivery_dynamics' && typeof v === 'boolean') {
          // Every cached day was computed under the old setting.
          if (store.state.settings.delivery_dynamics !== v) sim.delivery.clearCache();
          store.state.settings.delivery_dynamics = v;
        }
        else if ((SETTING_KEYS as readonly string[]).includes(k) && typeof v === 'number' && v >= 0) {
          store.state.settings[k as (typeof SETTING_KEYS)[number]] = v;
        } else throw new ControlError(`unknown or invalid setting ${k}`);
      }
      store.changed();
      return store.state.settings;
    });

    registerSiteRoutes(app, sim, orders);

    app.get('/__sim/media/*', async (_req, reply) => reply.type('image/png').header('cache-control', 'max-age=3600').send(PIXEL_PNG));

    app.get('/__sim/preview/:id', async (req, reply) => {
      const a = ad((req.params as { id: string }).id);
      const title = a.name.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      return reply.type('text/html; charset=utf-8').send(`<!doctype html><meta charset="utf-8"><title>${title}</title><p>Ad preview (simulator): ${title}</p>`);
    });
  };
}
