/**
 * The ad platform in our own vocabulary (STYLE.md §7). Services talk to Meta only through
 * AdPlatformClient; vendor field names, codes and units never leave the adapter. Money is in
 * minor units of the account currency where it comes from budgets and balances (`*_minor`),
 * major units where Insights report it.
 */

/** What went wrong, in terms a service can act on (reference §15). */
export type PlatformErrorKind =
  | 'rate_limited' // 4, 17, 32, 613, 80000–80014: back off and retry later
  | 'auth_expired' // 190/463: the token expired; the personal account needs a new one
  | 'auth_invalid' // 190 others, 102: revoked, password changed, app removed
  | 'permission' // 10, 200–299: a scope or role is missing
  | 'invalid_request' // 100 and most others: fix the request
  | 'not_found' // 100/33, 803: no such object (or not visible to this token)
  | 'unavailable'; // 1, 2, 5xx, time-outs, dropped connections: transient

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly details: {
      retryable: boolean;
      code?: number;
      subcode?: number;
      /** When the platform said how long to wait (rate limits). */
      retryAfterMs?: number;
      /** Meta's request id, for support. */
      fbtraceId?: string;
      /** The user-facing title/message Meta gives, when it gives one. */
      userTitle?: string;
      userMessage?: string;
      /** `error_data`, parsed when it is JSON text (e.g. the expected offsets of a video chunk). */
      data?: unknown;
    },
  ) {
    super(message);
    this.name = 'PlatformError';
  }
  get retryable() {
    return this.details.retryable;
  }
}

export interface TokenInfo {
  valid: boolean;
  userId: string | null;
  /** USER, SYSTEM_USER, PAGE, APP */
  type: string | null;
  scopes: string[];
  /** null = never expires. */
  expiresAt: Date | null;
  dataAccessExpiresAt: Date | null;
  issuedAt: Date | null;
}

export interface ExchangedToken {
  accessToken: string;
  /** null when the platform gave no expiry (never expires). */
  expiresAt: Date | null;
}

export interface PlatformUser {
  id: string;
  name: string;
}

export interface PlatformAdAccount {
  /** act_<n> */
  id: string;
  accountId: string;
  name: string;
  currency: string;
  timezoneName: string;
  timezoneOffsetHours: number;
  accountStatus: number;
  disableReason: number;
  amountSpentMinor: number;
  balanceMinor: number;
  /** null when no cap is set ("0" on the platform). */
  spendCapMinor: number | null;
  businessId: string | null;
  businessName: string | null;
}

export interface PlatformPage {
  id: string;
  name: string;
  category: string | null;
  pictureUrl: string | null;
  /** What this user may do on the page (ADVERTISE, CREATE_CONTENT, …). */
  tasks: string[];
  /** The page access token, when the user token is allowed to see it. */
  accessToken: string | null;
}

export interface PlatformPixel {
  id: string;
  name: string;
  lastFiredAt: Date | null;
  ownerBusinessId: string | null;
  /** act_ ids of the ad accounts the pixel was found on. */
  adAccountIds: string[];
}

/** Options every call may take. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** An image in an ad account's library: the platform names it by a hash (reference §7). */
export interface PlatformImage {
  hash: string;
  url: string | null;
}

/** uploading: bytes still missing; processing: the platform encodes it; ready: usable in ads. */
export type PlatformVideoStatus = 'uploading' | 'processing' | 'ready' | 'error' | 'expired';

export interface PlatformVideo {
  id: string;
  title: string | null;
  description: string | null;
  status: PlatformVideoStatus;
  /** 0–100 while processing. */
  progress: number;
  /** The platform's reason when the status is error. */
  errorMessage: string | null;
}

/** A chunked video upload under way: kept by the caller, so a run that died can resume it. */
export interface VideoUploadSession {
  videoId: string;
  sessionId: string;
}

/** Where the bytes of a video come from: read in the chunks the platform asks for, never whole. */
export interface VideoSource {
  size: number;
  read(start: number, end: number): Promise<Uint8Array>;
}

export interface UploadVideoInput {
  title: string;
  /** Also a marker: findAdVideo looks videos up by it. */
  description: string;
  /** An earlier session of this upload (its video id and session), to continue instead of starting over. */
  resume?: VideoUploadSession | null;
  /** Called once the platform opened the session, before any byte is sent: persist it. */
  onSession?(session: VideoUploadSession): Promise<void>;
  onProgress?(sent: number, total: number): void;
}

/** The ad platform, as the product uses it. One implementation speaks HTTP to the Graph API or the simulator. */
export interface AdPlatformClient {
  /** The login dialog a person opens to grant our app access (reference §11). */
  oauthDialogUrl(input: { redirectUri: string; state: string; scopes: readonly string[] }): string;
  /** Code from the dialog → a short-lived token → a long-lived (~60 day) one. */
  exchangeCode(input: { code: string; redirectUri: string }, opts?: CallOptions): Promise<ExchangedToken>;
  exchangeLongLived(token: string, opts?: CallOptions): Promise<ExchangedToken>;
  /** debug_token with the app token: validity, scopes, expiry; never throws for an invalid token. */
  debugToken(token: string, opts?: CallOptions): Promise<TokenInfo>;
  me(token: string, opts?: CallOptions): Promise<PlatformUser>;
  /** Every ad account the token reaches (all pages of /me/adaccounts). */
  listAdAccounts(token: string, opts?: CallOptions): Promise<PlatformAdAccount[]>;
  getAdAccount(token: string, adAccountId: string, opts?: CallOptions): Promise<PlatformAdAccount>;
  /** Pages the token's user has a role on, with page tokens. */
  listPages(token: string, opts?: CallOptions): Promise<PlatformPage[]>;
  /** Pixels of the given ad accounts (batched), each with the accounts it was found on. */
  listPixels(token: string, adAccountIds: readonly string[], opts?: CallOptions): Promise<PlatformPixel[]>;
  /** Adds an image to the account's library. The hash depends on the content only: uploading the same bytes again is harmless. */
  uploadAdImage(token: string, adAccountId: string, image: { data: Uint8Array; filename: string }, opts?: CallOptions): Promise<PlatformImage>;
  /**
   * Uploads a video in chunks (start, transfer…, finish), resuming `input.resume` when it is still
   * open on the platform (a dead session's video is deleted first). Answers the video id; the
   * platform then processes it (getAdVideo).
   */
  uploadAdVideo(token: string, adAccountId: string, source: VideoSource, input: UploadVideoInput, opts?: CallOptions): Promise<{ videoId: string }>;
  getAdVideo(token: string, videoId: string, opts?: CallOptions): Promise<PlatformVideo>;
  /** The account's video whose description is exactly `description`, if any (newest first). */
  findAdVideo(token: string, adAccountId: string, description: string, opts?: CallOptions): Promise<PlatformVideo | null>;
  deleteAdVideo(token: string, videoId: string, opts?: CallOptions): Promise<void>;
}
