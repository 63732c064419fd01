import type { SimClock } from '../clock.ts';
import type { DeliveryModel } from '../delivery/model.ts';
import type { FaultInjector } from '../faults.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { TokenRecord } from '../store/state.ts';
import type { Store } from '../store/store.ts';
import type { TokenService } from '../tokens.ts';
import type { FieldSelection, Params, UploadedFile } from './params.ts';

/** The simulator's services, shared by every request. */
export interface Sim {
  store: Store;
  clock: SimClock;
  seed: number;
  appId: string;
  appSecret: string;
  tokens: TokenService;
  limits: RateLimiter;
  faults: FaultInjector;
  delivery: DeliveryModel;
  /** Base URL the server listens on (for paging links, image URLs, the OAuth dialog). */
  baseUrl(): string;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

export type Method = 'GET' | 'POST' | 'DELETE';

/** Business use case a call is metered under (X-Business-Use-Case-Usage `type`). */
export type UsageType = 'ads_management' | 'ads_insights';

/** One Graph call (a top-level request or one batch item). */
export interface GraphContext {
  sim: Sim;
  method: Method;
  /** `v25.0`. */
  version: string;
  /** Path without the version, e.g. `/act_1/campaigns`. */
  path: string;
  params: Params;
  files: UploadedFile[];
  token: TokenRecord;
  /** The raw token string (paging links embed it, as the Graph API's do). */
  accessToken: string;
  now: number;
  fields: FieldSelection[] | undefined;
  /** Set by the router once the target object is known, for the usage headers. */
  usage?: { accountId: string; type: UsageType };
  /** An item of an asynchronous batch request (copies then have no synchronous size limit). */
  async?: boolean;
  /** `execution_options=["validate_only"]`: run every check, create and change nothing. */
  validateOnly: boolean;
}
