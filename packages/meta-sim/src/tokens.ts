import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SimClock } from './clock.ts';
import { TOKEN_LIFETIME } from './config.ts';
import { errors, SUBCODE, type GraphError } from './errors.ts';
import type { TokenRecord, TokenType } from './store/state.ts';
import type { Store } from './store/store.ts';
import { formatGraphTime } from './time.ts';

export interface IssueOptions {
  type?: TokenType;
  scopes: string[];
  /** Seconds until expiry; 0 = never (system-user style). */
  expiresIn: number;
  pageId?: string;
  parentToken?: string;
}

/** Issues, checks, expires and revokes access tokens; all times on the sim clock. */
export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly clock: SimClock,
    private readonly appId: string,
    private readonly appSecret: string,
  ) {}

  issue(userId: string, opts: IssueOptions): TokenRecord {
    const now = this.clock.now();
    // Real tokens start with "EAA"; the rest is opaque.
    const token = `EAA${randomBytes(30).toString('base64url')}`;
    const record: TokenRecord = {
      token,
      type: opts.type ?? 'USER',
      user_id: userId,
      page_id: opts.pageId,
      parent_token: opts.parentToken,
      app_id: this.appId,
      scopes: [...new Set(opts.scopes)],
      issued_at: now,
      expires_at: opts.expiresIn > 0 ? now + opts.expiresIn * 1000 : 0,
      data_access_expires_at: now + TOKEN_LIFETIME.dataAccessSeconds * 1000,
    };
    this.store.state.tokens[token] = record;
    this.store.changed();
    return record;
  }

  /** The app access token `<app_id>|<app_secret>` (debug_token, client credentials). */
  isAppToken(token: string): boolean {
    return token === `${this.appId}|${this.appSecret}`;
  }

  appToken(): string {
    return `${this.appId}|${this.appSecret}`;
  }

  /** Finds a token without judging it (debug_token reports on invalid ones too). */
  find(token: string): TokenRecord | undefined {
    return this.store.state.tokens[token];
  }

  /** Why a token is unusable now, or undefined when it is fine. */
  problem(record: TokenRecord | undefined, now = this.clock.now()): GraphError | undefined {
    if (!record) return errors.malformedToken();
    if (record.revoked_subcode !== undefined) return errors.tokenRevoked(record.revoked_subcode);
    if (record.expires_at > 0 && now >= record.expires_at) {
      return errors.tokenExpired(formatGraphTime(record.expires_at, 'America/Los_Angeles'), formatGraphTime(now, 'America/Los_Angeles'));
    }
    if (now >= record.data_access_expires_at && record.type !== 'SYSTEM_USER') {
      return errors.tokenExpired(formatGraphTime(record.data_access_expires_at, 'America/Los_Angeles'), formatGraphTime(now, 'America/Los_Angeles'));
    }
    const user = this.store.state.users[record.user_id];
    if (!user) return errors.tokenRevoked(SUBCODE.tokenInvalid);
    if (record.parent_token !== undefined) return this.problem(this.find(record.parent_token), now);
    return undefined;
  }

  /** Returns the usable token record or throws the 104 / 190 error the Graph API would. */
  authenticate(token: string | undefined): TokenRecord {
    if (!token) throw errors.missingToken();
    const record = this.find(token);
    const problem = this.problem(record);
    if (problem) throw problem;
    return record!;
  }

  /** Verifies `appsecret_proof` (HMAC-SHA256 of the token keyed by the app secret). */
  checkProof(token: string, proof: string | undefined, required: boolean): void {
    if (proof === undefined) {
      if (required) throw errors.invalidParameter('API calls from the server require an appsecret_proof argument');
      return;
    }
    const expected = createHmac('sha256', this.appSecret).update(token).digest();
    const given = Buffer.from(proof, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw errors.badAppSecretProof();
  }

  /** The page token derived from a user token (one per user token and page, reused). */
  pageToken(parent: TokenRecord, pageId: string): TokenRecord {
    const existing = Object.values(this.store.state.tokens).find(
      (t) => t.type === 'PAGE' && t.page_id === pageId && t.parent_token === parent.token,
    );
    if (existing) return existing;
    return this.issue(parent.user_id, {
      type: 'PAGE',
      pageId,
      parentToken: parent.token,
      scopes: parent.scopes,
      // A page token from a long-lived user token does not expire on its own (reference §11).
      expiresIn: 0,
    });
  }

  expire(record: TokenRecord): void {
    record.expires_at = Math.min(record.expires_at || Infinity, this.clock.now());
    this.store.changed();
  }

  revoke(record: TokenRecord, subcode: number = SUBCODE.tokenInvalid): void {
    record.revoked_subcode = subcode;
    this.store.changed();
  }

  /** Throws 200 unless the token carries one of the scopes. */
  requireScope(record: TokenRecord, anyOf: readonly string[]): void {
    if (anyOf.length === 0 || anyOf.some((s) => record.scopes.includes(s))) return;
    throw errors.missingPermission(anyOf[0]!);
  }
}
