import { randomBytes } from 'node:crypto';
import { formatMajor } from './money.ts';

// The Graph error envelope and the codes the simulator produces (reference §15).

export interface GraphErrorInit {
  code: number;
  message: string;
  subcode?: number;
  type?: string;
  userTitle?: string;
  userMsg?: string;
  /** Serialised to a JSON string in the envelope, as the Graph API does. */
  data?: Record<string, unknown>;
  isTransient?: boolean;
  httpStatus?: number;
  /** Extra response headers (e.g. usage headers on throttled calls). */
  headers?: Record<string, string>;
}

/** An error the Graph API would answer with; thrown by handlers, rendered by the server. */
export class GraphError extends Error {
  readonly code: number;
  readonly subcode: number | undefined;
  readonly type: string;
  readonly userTitle: string | undefined;
  readonly userMsg: string | undefined;
  readonly data: Record<string, unknown> | undefined;
  readonly isTransient: boolean;
  readonly httpStatus: number;
  readonly headers: Record<string, string>;

  constructor(init: GraphErrorInit) {
    super(init.message);
    this.code = init.code;
    this.subcode = init.subcode;
    this.type = init.type ?? 'OAuthException';
    this.userTitle = init.userTitle;
    this.userMsg = init.userMsg;
    this.data = init.data;
    this.isTransient = init.isTransient ?? false;
    this.httpStatus = init.httpStatus ?? defaultHttpStatus(init.code);
    this.headers = init.headers ?? {};
  }

  toBody(fbtraceId: string): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { message: this.message, type: this.type, code: this.code };
    if (this.subcode !== undefined) error.error_subcode = this.subcode;
    if (this.userTitle !== undefined) error.error_user_title = this.userTitle;
    if (this.userMsg !== undefined) error.error_user_msg = this.userMsg;
    if (this.data !== undefined) error.error_data = JSON.stringify(this.data);
    error.is_transient = this.isTransient;
    error.fbtrace_id = fbtraceId;
    return { error };
  }
}

/**
 * HTTP status per code [U in the reference]: 403 for permission codes (10, 200–299), 500 for
 * the "unknown"/"service" codes 1 and 2, 400 for everything else incl. 190 and throttling.
 */
export function defaultHttpStatus(code: number): number {
  if (code === 10 || (code >= 200 && code <= 299)) return 403;
  if (code === 1 || code === 2 || code === -2) return 500;
  return 400;
}

/** An opaque trace id in the style of the Graph API's `fbtrace_id`. */
export function newTraceId(): string {
  return randomBytes(8).toString('base64url').slice(0, 11);
}

const withCode = (code: number, text: string) => `(#${code}) ${text}`;

/** Blame a parameter the way Ads Manager's validation does. */
function blame(...path: string[]): Record<string, unknown> {
  return { blame_field_specs: [path] };
}

// Subcodes named in reference §15, plus the simulator's own choices marked [U].
export const SUBCODE = {
  objectMissing: 33,
  optimizationGoalNotAllowed: 2490408,
  budgetOnBothLevels: 1885621,
  promotedObjectImmutable: 3260011,
  videoThumbnailMissing: 1443226,
  /** [U] simulator choice: the reference names no subcode for "video still processing". */
  videoNotReady: 1885252,
  videoChunkOffset: 1363037,
  throttled: 2446079,
  adsetBudgetChanges: 1487632,
  spendCapChanges: 1885172,
  tokenAppRemoved: 458,
  tokenPasswordChanged: 460,
  tokenExpired: 463,
  tokenInvalid: 467,
  asyncReportFailed: 2490547,
  wrongLevel: 99,
  invalidBreakdowns: 1504041,
  /** A synchronous copy of more objects than allowed (third-party reports: 100 / 1885194). */
  copyTooLarge: 1885194,
  /** Campaign without a campaign budget and without is_adset_budget_sharing_enabled (v24+). */
  budgetSharingRequired: 4834011,
  /** EU-targeted ad set without a beneficiary ("No advertiser indicated"). */
  dsaBeneficiaryMissing: 3858081,
  /** [U] EU-targeted ad set without a payer (one third-party table; Meta's text unknown). */
  dsaPayorMissing: 3858079,
  /** "Your budget must be more than … or your ads may not be delivered." */
  budgetTooLow: 1885272,
  /** [U] a second "budget too low" subcode in public error tables, used here for the 5× bid rule. */
  budgetBelowBid: 1885650,
  /** "Bid Amount Or Bid Constraints Required For Bid Strategy". */
  bidConstraintsRequired: 2490487,
  /** [U] third-party tables tie it to an ad account that cannot be used (disabled, no payment method). */
  accountNotWritable: 1487390,
  /** Ad creation throttled for the account (reference §5 / §15). */
  adCreationLimit: 1487225,
} as const;

/** "USD1.00", "JPY150": how Meta's budget messages print an amount. */
function amount(minor: number, currency: string): string {
  return `${currency}${formatMajor(minor, currency)}`;
}

export const errors = {
  invalidParameter: (text: string, extra: Partial<GraphErrorInit> = {}) =>
    new GraphError({ code: 100, message: withCode(100, text), ...extra }),

  requiredParameter: (name: string) =>
    new GraphError({
      code: 100,
      message: withCode(100, `The parameter ${name} is required`),
      data: blame(name),
    }),

  invalidEnum: (name: string, values: readonly string[]) =>
    new GraphError({
      code: 100,
      message: withCode(100, `Param ${name} must be one of {${values.join(', ')}}`),
      data: blame(name),
    }),

  /** Unknown ids and ids the token may not see look the same, as on the Graph API. */
  unsupportedGet: (id: string, method = 'get') =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.objectMissing,
      message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    }),

  nonexistingField: (field: string, nodeType: string) =>
    new GraphError({ code: 100, message: withCode(100, `Tried accessing nonexisting field (${field}) on node type (${nodeType})`) }),

  unknownPath: (path: string) => new GraphError({ code: 2500, message: `Unknown path components: ${path}` }),

  deprecatedVersion: (version: string) =>
    new GraphError({
      code: 2635,
      message: withCode(2635, `You are calling a deprecated version of the Ads API. Please update to the latest version: ${version} is no longer available.`),
    }),

  missingToken: () => new GraphError({ code: 104, message: 'An access token is required to request this resource.' }),

  malformedToken: () => new GraphError({ code: 190, message: 'Invalid OAuth access token - Cannot parse access token' }),

  tokenExpired: (expiredAt: string, now: string) =>
    new GraphError({
      code: 190,
      subcode: SUBCODE.tokenExpired,
      message: `Error validating access token: Session has expired on ${expiredAt}. The current time is ${now}.`,
    }),

  tokenRevoked: (subcode: number) =>
    new GraphError({
      code: 190,
      subcode,
      message:
        subcode === SUBCODE.tokenPasswordChanged
          ? 'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.'
          : subcode === SUBCODE.tokenAppRemoved
            ? 'Error validating access token: The user has not authorized application.'
            : 'Error validating access token: The session is invalid because the user logged out.',
    }),

  badAppSecretProof: () => new GraphError({ code: 100, message: 'Invalid appsecret_proof provided in the API argument' }),

  missingPermission: (permission: string, code = 200) =>
    new GraphError({ code, message: withCode(code, `Requires ${permission} permission to manage the object`) }),

  appLimit: (headers: Record<string, string>) =>
    new GraphError({ code: 4, message: withCode(4, 'Application request limit reached'), isTransient: true, headers }),

  accountScoreLimit: (headers: Record<string, string>) =>
    new GraphError({
      code: 17,
      subcode: SUBCODE.throttled,
      message: withCode(17, 'User request limit reached'),
      userTitle: 'Ad Account Has Too Many API Calls',
      userMsg: 'There have been too many calls from this ad-account. Please wait a bit and try again.',
      isTransient: true,
      headers,
    }),

  bucThrottle: (type: 'ads_management' | 'ads_insights', headers: Record<string, string>) =>
    new GraphError({
      code: type === 'ads_insights' ? 80000 : 80004,
      subcode: SUBCODE.throttled,
      message: withCode(
        type === 'ads_insights' ? 80000 : 80004,
        `There have been too many calls to this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting#${type.replace('_', '-')}.`,
      ),
      userTitle: 'Ad Account Has Too Many API Calls',
      userMsg: 'There have been too many calls from this ad-account. Please wait a bit and try again.',
      isTransient: true,
      headers,
    }),

  adsetBudgetChangeLimit: () =>
    new GraphError({
      code: 613,
      subcode: SUBCODE.adsetBudgetChanges,
      message: withCode(613, 'Calls to this api have exceeded the rate limit.'),
      userTitle: 'Too Many Changes to Ad Set Budget',
      userMsg: 'You have changed the budget of this ad set too many times in the last hour. Please wait an hour and try again.',
      isTransient: true,
    }),

  spendCapChangeLimit: () =>
    new GraphError({
      code: 17,
      subcode: SUBCODE.spendCapChanges,
      message: withCode(17, 'User request limit reached'),
      userTitle: 'Spending Limit Changed Too Often',
      userMsg: 'The account spending limit can only be changed 10 times a day. Please try again tomorrow.',
      isTransient: true,
    }),

  optimizationGoalNotAllowed: (goal: string, objective: string) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.optimizationGoalNotAllowed,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Performance goal not available',
      userMsg: `The performance goal ${goal} isn't available for campaigns with the objective ${objective}.`,
      data: blame('optimization_goal'),
    }),

  budgetOnBothLevels: () =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.budgetOnBothLevels,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Budget set on both campaign and ad set',
      userMsg: 'A budget can be set on the campaign (Advantage campaign budget) or on its ad sets, not on both.',
      data: blame('daily_budget'),
    }),

  promotedObjectImmutable: (field: string) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.promotedObjectImmutable,
      message: withCode(100, 'Invalid parameter'),
      userTitle: "Can't edit a published ad set",
      userMsg: `The ${field} of an ad set can't be changed after it has been published. Create a new ad set instead.`,
      data: blame(field),
    }),

  videoThumbnailMissing: () =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.videoThumbnailMissing,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Video ad thumbnail required',
      userMsg: 'Your video ad needs a thumbnail. Please set image_hash or image_url in video_data.',
      data: blame('object_story_spec', 'video_data', 'image_hash'),
    }),

  videoNotReady: (videoId: string) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.videoNotReady,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Video not ready',
      userMsg: `The video ${videoId} is still being processed. Try again when its status is ready.`,
      data: blame('object_story_spec', 'video_data', 'video_id'),
    }),

  videoChunkOffset: (startOffset: number, endOffset: number) =>
    new GraphError({
      code: 6001,
      subcode: SUBCODE.videoChunkOffset,
      message: withCode(6001, 'There was a problem uploading your video. Please try uploading it again.'),
      userTitle: 'Upload Failed',
      userMsg: 'The chunk start offset does not match the expected offset. Resume from the offsets in error_data.',
      data: { start_offset: String(startOffset), end_offset: String(endOffset) },
      isTransient: true,
    }),

  wrongLevel: (level: string, nodeType: string) =>
    new GraphError({ code: 1, subcode: SUBCODE.wrongLevel, message: `An unknown error occurred`, userMsg: `level ${level} is not valid for a ${nodeType} node` }),

  invalidBreakdowns: (breakdowns: string[]) =>
    new GraphError({
      code: 2,
      subcode: SUBCODE.invalidBreakdowns,
      message: 'Service temporarily unavailable',
      userTitle: 'Invalid breakdown combination',
      userMsg: `The combination of breakdowns [${breakdowns.join(', ')}] is not supported.`,
    }),

  asyncReportFailed: () =>
    new GraphError({ code: -2, subcode: SUBCODE.asyncReportFailed, message: 'Async report failed', isTransient: true }),

  copyTooLarge: (count: number, limit: number) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.copyTooLarge,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Copy Request Too Large',
      userMsg: `This copy would create ${count} objects; a synchronous copy may create at most ${limit} (the object with its ad sets and ads). Copy fewer objects, or send the copy as an asynchronous batch request (asyncbatch).`,
    }),

  /** A parameter that another copies edge takes but this one does not [U: Graph's exact text]. */
  copyParamNotAllowed: (param: string, objectType: string) =>
    new GraphError({
      code: 100,
      message: withCode(100, `Param ${param} is not supported by ${objectType} copies`),
      data: blame(param),
    }),

  budgetSharingRequired: () =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.budgetSharingRequired,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Must specify True or False in is_adset_budget_sharing_enabled field',
      userMsg:
        'You must specify True or False in the is_adset_budget_sharing_enabled field. This is required starting v24.0 if you are not setting a budget at the campaign level (daily_budget or lifetime_budget).',
      data: blame('is_adset_budget_sharing_enabled'),
    }),

  dsaBeneficiaryMissing: () =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.dsaBeneficiaryMissing,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'No advertiser indicated',
      userMsg:
        "Ads that reach people in the European Union must say who benefits from them. Set dsa_beneficiary on the ad set (or the ad account's default_dsa_beneficiary).",
      data: blame('dsa_beneficiary'),
    }),

  dsaPayorMissing: () =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.dsaPayorMissing,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'No payer indicated',
      userMsg: "Ads that reach people in the European Union must say who pays for them. Set dsa_payor on the ad set (or the ad account's default_dsa_payor).",
      data: blame('dsa_payor'),
    }),

  budgetTooLow: (minimum: number, currency: string, field: string) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.budgetTooLow,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Your Budget Is Too Low',
      userMsg: `Your budget must be at least ${amount(minimum, currency)} or your ads may not be delivered. Please increase the budget.`,
      data: blame(field),
    }),

  budgetBelowBid: (minimum: number, currency: string, field: string) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.budgetBelowBid,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Your Budget Is Too Low',
      userMsg: `With a bid cap or cost cap your daily budget must be at least 5 times the bid: at least ${amount(minimum, currency)}.`,
      data: blame(field),
    }),

  bidConstraintsRequired: (strategy: string, field: string[]) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.bidConstraintsRequired,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Bid Amount Or Bid Constraints Required For Bid Strategy',
      userMsg:
        strategy === 'LOWEST_COST_WITH_MIN_ROAS'
          ? 'The bid strategy LOWEST_COST_WITH_MIN_ROAS needs a minimum ROAS: set bid_constraints {"roas_average_floor": …} (10000 = 1.0×).'
          : `The bid strategy ${strategy} needs bid_amount.`,
      data: { blame_field_specs: [field] },
    }),

  statusOnCreate: (status: string) =>
    new GraphError({
      code: 100,
      message: withCode(100, 'Param status must be one of {ACTIVE, PAUSED}'),
      userTitle: 'Invalid status',
      userMsg: `Objects can only be created ACTIVE or PAUSED, not ${status}. Other statuses can be set by an update.`,
      data: blame('status'),
    }),

  accountNotWritable: (accountId: string, status: number) =>
    new GraphError({
      code: 100,
      subcode: SUBCODE.accountNotWritable,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Ad Account Disabled',
      userMsg: `The ad account act_${accountId} can't create or edit ads (account_status ${status}). Only pausing or deleting is allowed until it is active again.`,
      data: { account_status: status },
    }),

  adCreationLimit: (limit: number, minutes: number) =>
    new GraphError({
      code: 613,
      subcode: SUBCODE.adCreationLimit,
      message: withCode(613, 'Calls to this api have exceeded the rate limit.'),
      userTitle: 'Too Many Ads Created',
      userMsg: `This ad account has created its limit of ${limit} ads in the last hour (the limit depends on the account's daily spend limit). Try again in about ${minutes} minutes.`,
      isTransient: true,
    }),

  tooManyAdsInAdSet: (limit: number) =>
    new GraphError({
      code: 100,
      message: withCode(100, 'Invalid parameter'),
      userTitle: 'Too Many Ads in Ad Set',
      userMsg: `An ad set can have at most ${limit} ads that are not archived or deleted. Create another ad set, or delete or archive some ads.`,
      data: blame('adset_id'),
    }),

  batchSameCampaign: (campaignId: string) =>
    new GraphError({
      code: 100,
      message: withCode(100, 'Batch requests cannot include multiple ad sets under the same campaign'),
      userTitle: 'Several ad sets of one campaign in one batch',
      userMsg: `This batch already has an ad set request for campaign ${campaignId}. Send the other ad sets of that campaign in separate requests.`,
    }),

  /** An asset feed (dynamic creative) that breaks Meta's shape or limits [U: Meta's subcodes unknown]. */
  assetFeedInvalid: (text: string, field: string) => new GraphError({ code: 100, message: withCode(100, text), data: blame(...field.split('.')) }),

  /** An asset-feed creative on an ad set that is not a dynamic-creative one, or the reverse [U subcode]. */
  dynamicCreativeMismatch: (text: string) => new GraphError({ code: 100, message: withCode(100, text), userTitle: 'Dynamic creative', userMsg: text, data: blame('creative') }),

  /** A schedule outside the window (10 minutes to 30 days ahead) [U: Meta's subcode unknown]. */
  scheduledTimeInvalid: () =>
    new GraphError({ code: 100, message: withCode(100, 'The specified scheduled publish time is invalid.'), data: blame('scheduled_publish_time') }),

  /** A schedule on a post that is published now. */
  scheduledPublished: () =>
    new GraphError({ code: 100, message: withCode(100, 'You cannot specify a scheduled publish time on a published post'), data: blame('scheduled_publish_time') }),

  pagePostPermission: () =>
    new GraphError({
      code: 200,
      message: withCode(
        200,
        'If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission',
      ),
    }),

  missingImageFile: () => new GraphError({ code: 324, message: withCode(324, 'Missing or invalid image file') }),

  validateOnlyUnsupported: () =>
    new GraphError({
      code: 100,
      message: withCode(100, 'Param execution_options is not supported by this call'),
      data: blame('execution_options'),
    }),

  unknownError: () => new GraphError({ code: 1, message: 'An unknown error occurred', isTransient: true }),

  unknownAliases: (ids: string[]) =>
    new GraphError({ code: 803, message: withCode(803, `Some of the aliases you requested do not exist: ${ids.join(',')}`) }),
};
