import { DEFAULT_SCOPES, TOKEN_LIFETIME } from '../config.ts';
import { accountSnapshot } from '../delivery/status.ts';
import { KNOWN_SCOPES } from '../domain.ts';
import type { Sim } from '../graph/context.ts';
import { isSupportedCurrency, supportedCurrencies } from '../money.ts';
import type { AdAccountRecord, TokenType } from '../store/state.ts';
import { formatGraphTime, isValidTimeZone } from '../time.ts';

// Test users with a token and a business full of assets, in one call (`POST /__sim/users`,
// the OAuth dialog's "new test user", DEMO=1).

/** A control-API request the simulator refuses (HTTP 400 with a plain message). */
export class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface AccountSpec {
  name?: string;
  currency?: string;
  timezone_name?: string;
  /** `client`: another business's account shared with this one (client_ad_accounts). */
  relation?: 'owned' | 'client';
}

export interface TestUserInput {
  name?: string;
  scopes?: string[];
  /** Seconds until the token expires; 0 = never. Default ~60 days (a long-lived token). */
  token_expires_in?: number;
  token_type?: Extract<TokenType, 'USER' | 'SYSTEM_USER'>;
  business_name?: string;
  /** A count (with `currency` / `timezone_name` for all) or one spec per account. Default 3. */
  ad_accounts?: number | AccountSpec[];
  currency?: string;
  timezone_name?: string;
  pages?: number | Array<{ name?: string; category?: string }>;
  pixels?: number;
}

const MAX_ASSETS = 1000;

function count(value: number | unknown[] | undefined, fallback: number, what: string): number {
  const n = Array.isArray(value) ? value.length : (value ?? fallback);
  if (!Number.isInteger(n) || n < 0 || n > MAX_ASSETS) throw new ControlError(`${what} must be a count from 0 to ${MAX_ASSETS}`);
  return n;
}

export function createTestUser(sim: Sim, input: TestUserInput) {
  const store = sim.store;
  const state = store.state;
  const now = sim.clock.now();
  const scopes = input.scopes && input.scopes.length > 0 ? input.scopes : DEFAULT_SCOPES;
  for (const s of scopes) if (!(KNOWN_SCOPES as readonly string[]).includes(s)) throw new ControlError(`unknown scope ${s}; known: ${KNOWN_SCOPES.join(', ')}`);
  const accountCount = count(input.ad_accounts, 3, 'ad_accounts');
  const pageCount = count(input.pages, 2, 'pages');
  const pixelCount = count(input.pixels, 1, 'pixels');
  const specs: AccountSpec[] = Array.from({ length: accountCount }, (_, i) => (Array.isArray(input.ad_accounts) ? (input.ad_accounts[i] ?? {}) : {}));
  for (const spec of specs) {
    const currency = spec.currency ?? input.currency ?? 'USD';
    const tz = spec.timezone_name ?? input.timezone_name ?? 'America/Los_Angeles';
    if (!isSupportedCurrency(currency)) throw new ControlError(`unsupported currency ${currency}; supported: ${supportedCurrencies().join(', ')}`);
    if (!isValidTimeZone(tz)) throw new ControlError(`unknown time zone ${tz}`);
  }

  const expiresIn = input.token_expires_in ?? TOKEN_LIFETIME.longLivedSeconds;
  if (!Number.isInteger(expiresIn) || expiresIn < 0) throw new ControlError('token_expires_in must be a non-negative integer (seconds; 0 = never)');

  const user = { id: store.newId(), name: input.name ?? 'Sim Test User', created_at: now };
  state.users[user.id] = user;
  const business = { id: store.newId(), name: input.business_name ?? `${user.name}'s Business`, owner_user_id: user.id, verification_status: 'verified' as const, created_at: now };
  state.businesses[business.id] = business;

  const accounts: AdAccountRecord[] = specs.map((spec, i) => {
    const account: AdAccountRecord = {
      id: store.newId(),
      name: spec.name ?? `${business.name} ${String(i + 1).padStart(2, '0')}`,
      currency: spec.currency ?? input.currency ?? 'USD',
      timezone_name: spec.timezone_name ?? input.timezone_name ?? 'America/Los_Angeles',
      business_id: business.id,
      relation: spec.relation ?? 'owned',
      user_ids: [user.id],
      account_status: 1,
      disable_reason: 0,
      spend_cap: 0,
      spend_cap_changes: [],
      created_at: now,
      history: [],
    };
    account.history.push(accountSnapshot(account, now));
    state.ad_accounts[account.id] = account;
    return account;
  });

  const pages = Array.from({ length: pageCount }, (_, i) => {
    const spec = Array.isArray(input.pages) ? (input.pages[i] ?? {}) : {};
    const page = {
      id: store.newId(),
      name: spec.name ?? `Sim Page ${i + 1}`,
      category: spec.category ?? 'Entertainment website',
      business_id: business.id,
      relation: 'owned' as const,
      user_ids: [user.id],
      created_at: now,
    };
    state.pages[page.id] = page;
    return page;
  });

  const pixels = Array.from({ length: pixelCount }, (_, i) => {
    const pixel = { id: store.newId(), name: `Sim Pixel ${i + 1}`, business_id: business.id, shared_account_ids: accounts.map((a) => a.id), created_at: now };
    state.pixels[pixel.id] = pixel;
    return pixel;
  });

  const token = sim.tokens.issue(user.id, { type: input.token_type ?? 'USER', scopes, expiresIn });
  store.changed();

  return {
    user: { id: user.id, name: user.name },
    access_token: token.token,
    expires_at: token.expires_at > 0 ? formatGraphTime(token.expires_at) : null,
    scopes: token.scopes,
    business: { id: business.id, name: business.name },
    ad_accounts: accounts.map((a) => ({ id: `act_${a.id}`, account_id: a.id, name: a.name, currency: a.currency, timezone_name: a.timezone_name })),
    pages: pages.map((p) => ({ id: p.id, name: p.name, access_token: sim.tokens.pageToken(token, p.id).token })),
    pixels: pixels.map((p) => ({ id: p.id, name: p.name })),
  };
}
