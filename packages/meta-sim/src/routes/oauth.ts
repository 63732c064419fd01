import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { TOKEN_LIFETIME } from '../config.ts';
import { KNOWN_SCOPES } from '../domain.ts';
import { errors, GraphError } from '../errors.ts';
import type { Sim } from '../graph/context.ts';
import type { Params } from '../graph/params.ts';
import type { PublicHandler } from '../graph/pipeline.ts';
import { splitVersion } from '../graph/pipeline.ts';
import type { TokenRecord } from '../store/state.ts';
import { createTestUser } from '../control/assets.ts';

// Login and tokens (reference §11): the OAuth dialog a browser clicks through, the code and
// long-lived token exchanges, and debug_token.

const seconds = (ms: number) => Math.floor(ms / 1000);

function assertApp(sim: Sim, params: Params): void {
  if (params.string('client_id') !== sim.appId) throw new GraphError({ code: 101, message: 'Error validating application. Invalid application ID.' });
  if (params.string('client_secret') !== sim.appSecret) throw new GraphError({ code: 1, message: 'Error validating client secret.' });
}

function tokenAnswer(sim: Sim, record: TokenRecord) {
  const answer: Record<string, unknown> = { access_token: record.token, token_type: 'bearer' };
  // `expires_in` is absent for tokens that never expire.
  if (record.expires_at > 0) answer.expires_in = Math.max(0, seconds(record.expires_at - sim.clock.now()));
  return answer;
}

/** Codes of the manual login flow [U: subcodes 36007–36009 are from public reports]. */
function exchangeCode(sim: Sim, params: Params) {
  assertApp(sim, params);
  const code = params.requiredString('code');
  const record = sim.store.state.auth_codes[code];
  if (!record) throw errors.invalidParameter('Invalid verification code format.');
  if (record.used) throw errors.invalidParameter('This authorization code has been used.', { subcode: 36009 });
  if (sim.clock.now() >= record.expires_at) throw errors.invalidParameter('This authorization code has expired.', { subcode: 36007 });
  if (params.string('redirect_uri') !== record.redirect_uri) {
    throw errors.invalidParameter('Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', { subcode: 36008 });
  }
  record.used = true;
  const token = sim.tokens.issue(record.user_id, { scopes: record.scopes, expiresIn: TOKEN_LIFETIME.shortLivedSeconds });
  return tokenAnswer(sim, token);
}

function exchangeLongLived(sim: Sim, params: Params) {
  assertApp(sim, params);
  const short = params.requiredString('fb_exchange_token');
  // An expired or revoked token cannot be exchanged: the person must log in again.
  const record = sim.tokens.authenticate(short);
  const token = sim.tokens.issue(record.user_id, { type: record.type, scopes: record.scopes, expiresIn: TOKEN_LIFETIME.longLivedSeconds });
  return tokenAnswer(sim, token);
}

function accessToken(sim: Sim, params: Params) {
  const grant = params.string('grant_type');
  if (grant === 'fb_exchange_token') return exchangeLongLived(sim, params);
  if (grant === 'client_credentials') {
    assertApp(sim, params);
    return { access_token: sim.tokens.appToken(), token_type: 'bearer' };
  }
  return exchangeCode(sim, params);
}

function granularScopes(sim: Sim, record: TokenRecord) {
  const s = sim.store.state;
  const targets: Record<string, string[]> = {
    ads_management: Object.values(s.ad_accounts).filter((a) => a.user_ids.includes(record.user_id)).map((a) => a.id),
    ads_read: Object.values(s.ad_accounts).filter((a) => a.user_ids.includes(record.user_id)).map((a) => a.id),
    business_management: Object.values(s.businesses).filter((b) => b.owner_user_id === record.user_id).map((b) => b.id),
  };
  const pages = Object.values(s.pages).filter((p) => p.user_ids.includes(record.user_id)).map((p) => p.id);
  return record.scopes.map((scope) => ({ scope, ...(scope.startsWith('pages_') ? { target_ids: pages } : targets[scope] ? { target_ids: targets[scope] } : {}) }));
}

function debugToken(sim: Sim, params: Params) {
  const caller = params.string('access_token');
  if (!caller || !sim.tokens.isAppToken(caller)) sim.tokens.authenticate(caller);
  const input = params.requiredString('input_token');
  if (sim.tokens.isAppToken(input)) {
    return { data: { app_id: sim.appId, type: 'APP', application: 'Meta Simulator App', is_valid: true, scopes: [] } };
  }
  const record = sim.tokens.find(input);
  if (!record) return { data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] } };
  const problem = sim.tokens.problem(record);
  const data: Record<string, unknown> = {
    app_id: record.app_id,
    type: record.type,
    application: 'Meta Simulator App',
    data_access_expires_at: seconds(record.data_access_expires_at),
    expires_at: record.expires_at > 0 ? seconds(record.expires_at) : 0,
    is_valid: problem === undefined,
    issued_at: seconds(record.issued_at),
    scopes: record.scopes,
    granular_scopes: granularScopes(sim, record),
    user_id: record.user_id,
  };
  if (record.page_id) data.profile_id = record.page_id;
  if (problem) data.error = { code: problem.code, message: problem.message, subcode: problem.subcode };
  return { data };
}

export const oauthHandlers: Record<string, PublicHandler> = {
  '/oauth/access_token': accessToken,
  '/debug_token': debugToken,
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f0f2f5;margin:0}main{max-width:420px;margin:60px auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 2px 8px #0002}
h1{font-size:20px;margin:0 0 12px}ul{padding-left:20px}button{font-size:15px;padding:8px 18px;border-radius:6px;border:0;margin-right:8px;cursor:pointer}
.primary{background:#1877f2;color:#fff}select{width:100%;padding:6px;margin:8px 0 16px}.note{color:#65676b;font-size:13px}</style></head>
<body><main>${body}</main></body></html>`;
}

/** Appends query parameters to a redirect URI, keeping its own. */
function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

function validRedirect(uri: string | undefined): uri is string {
  try {
    return !!uri && ['http:', 'https:'].includes(new URL(uri).protocol);
  } catch {
    return false;
  }
}

/**
 * `GET /v{N}.0/dialog/oauth` renders a consent page for the simulator's test users;
 * "Continue" posts back and redirects to `redirect_uri` with `code` and `state`.
 */
export function registerOAuthDialog(app: FastifyInstance, sim: Sim): void {
  const url = '/:version/dialog/oauth';

  app.get(url, async (req, reply) => {
    const { version } = req.params as { version: string };
    const q = req.query as Record<string, string | undefined>;
    try {
      splitVersion(`/${version}`);
    } catch (err) {
      return reply.code(400).type('text/html; charset=utf-8').send(page('Error', `<h1>Error</h1><p>${escape((err as Error).message)}</p>`));
    }
    if (q.client_id !== sim.appId || !validRedirect(q.redirect_uri)) {
      return reply.code(400).type('text/html; charset=utf-8').send(page('Error', '<h1>Invalid request</h1><p>Unknown client_id or missing/invalid redirect_uri.</p>'));
    }
    const scopes = (q.scope ?? 'public_profile').split(/[ ,]+/).filter((s) => (KNOWN_SCOPES as readonly string[]).includes(s));
    const users = Object.values(sim.store.state.users).sort((a, b) => b.created_at - a.created_at);
    const options = users.map((u) => `<option value="${escape(u.id)}">${escape(u.name)} (${escape(u.id)})</option>`).join('');
    const hidden = Object.entries({ client_id: q.client_id, redirect_uri: q.redirect_uri, state: q.state ?? '', scope: scopes.join(',') })
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escape(v ?? '')}">`)
      .join('');
    const body = `<h1>Meta Simulator App wants to access your account</h1>
<form method="post">${hidden}
<label>Continue as<select name="user_id">${options}<option value="new">A new test user (3 ad accounts, 2 pages, 1 pixel)</option></select></label>
<p>It will be able to:</p><ul>${scopes.map((s) => `<li>${escape(s)}</li>`).join('')}</ul>
<button class="primary" name="action" value="continue" type="submit">Continue</button><button name="action" value="cancel" type="submit">Cancel</button>
<p class="note">This is the loopback Graph API simulator; no real Facebook account is involved.</p></form>`;
    return reply.type('text/html; charset=utf-8').send(page('Log in — Meta simulator', body));
  });

  app.post(url, async (req, reply) => {
    const f = (req.body ?? {}) as Record<string, string | undefined>;
    if (f.client_id !== sim.appId || !validRedirect(f.redirect_uri)) return reply.code(400).send('invalid request');
    if (f.action !== 'continue') {
      return reply.redirect(
        withQuery(f.redirect_uri, { error: 'access_denied', error_code: '200', error_description: 'Permissions error', error_reason: 'user_denied', state: f.state }),
        302,
      );
    }
    const scopes = (f.scope ?? '').split(',').filter(Boolean);
    const userId = f.user_id && f.user_id !== 'new' && sim.store.state.users[f.user_id] ? f.user_id : createTestUser(sim, { scopes }).user.id;
    const code = randomBytes(24).toString('base64url');
    sim.store.state.auth_codes[code] = {
      code,
      user_id: userId,
      client_id: f.client_id,
      redirect_uri: f.redirect_uri,
      scopes,
      expires_at: sim.clock.now() + TOKEN_LIFETIME.authCodeSeconds * 1000,
      used: false,
    };
    sim.store.changed();
    return reply.redirect(withQuery(f.redirect_uri, { code, state: f.state }), 302);
  });
}
