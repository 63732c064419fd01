import { z } from 'zod';

// Zod schemas of what the Graph API answers. They stay inside the platform folder: vendor field
// names are translated to our vocabulary in meta-adapter.ts and never travel further. Objects
// are not strict — Meta adds fields freely, and unknown ones are simply dropped.

/** The error envelope (reference §15). `error_data` may be a JSON string or an object. */
export const graphErrorEnvelopeSchema = z.object({
  error: z.object({
    message: z.string().default(''),
    type: z.string().optional(),
    code: z.coerce.number().int(),
    error_subcode: z.coerce.number().int().optional(),
    error_user_title: z.string().optional(),
    error_user_msg: z.string().optional(),
    is_transient: z.boolean().optional(),
    fbtrace_id: z.string().optional(),
    error_data: z.unknown().optional(),
  }),
});
export type GraphErrorEnvelope = z.infer<typeof graphErrorEnvelopeSchema>;

/** One page of a cursor-paged edge (reference §13); `next` only tells whether more pages exist. */
export const graphPageSchema = z.object({
  data: z.array(z.unknown()),
  paging: z
    .object({
      cursors: z.object({ before: z.string().optional(), after: z.string().optional() }).optional(),
      next: z.string().optional(),
    })
    .optional(),
});

/** The batch endpoint's answer (reference §14): one entry per sub-request, `null` when it did not run. */
export const graphBatchResponseSchema = z.array(
  z
    .object({
      code: z.number().int(),
      headers: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
      body: z.string().nullable().optional(),
    })
    .nullable(),
);

// Usage headers (reference §16). Percentages may arrive as numbers or numeric strings.
const pct = z.coerce.number().min(0).catch(0);

export const appUsageSchema = z.object({ call_count: pct.optional(), total_cputime: pct.optional(), total_time: pct.optional() });

export const adAccountUsageSchema = z.object({
  acc_id_util_pct: pct.optional(),
  /** Seconds until the account's short-window score resets. */
  reset_time_duration: pct.optional(),
});

export const businessUseCaseUsageSchema = z.record(
  z.string(),
  z.array(
    z.object({
      type: z.string().default('ads_management'),
      call_count: pct.optional(),
      total_cputime: pct.optional(),
      total_time: pct.optional(),
      /** Minutes; 0 = not throttled. */
      estimated_time_to_regain_access: pct.optional(),
    }),
  ),
);

export const insightsThrottleSchema = z.object({ app_id_util_pct: pct.optional(), acc_id_util_pct: pct.optional() });

// Objects.

/** `/oauth/access_token` (reference §11); `expires_in` is absent for tokens that never expire. */
export const graphTokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().nonnegative().optional(),
});

/** `/debug_token`: times are epoch seconds, `expires_at` 0 = never. */
export const graphDebugTokenSchema = z.object({
  data: z.object({
    app_id: z.string().optional(),
    type: z.string().optional(),
    is_valid: z.boolean().default(false),
    issued_at: z.number().optional(),
    expires_at: z.number().optional(),
    data_access_expires_at: z.number().optional(),
    scopes: z.array(z.string()).default([]),
    user_id: z.string().optional(),
  }),
});

export const graphUserSchema = z.object({ id: z.string(), name: z.string().default('') });

/** Money fields of an ad account: integer strings in minor units [reference §2, U]. */
const minorAmount = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = Number(v);
  if (String(v).trim() === '' || !Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: `not an amount: ${String(v)}` });
    return z.NEVER;
  }
  return Math.round(n);
});

export const AD_ACCOUNT_FIELDS = [
  'id',
  'account_id',
  'name',
  'currency',
  'timezone_name',
  'timezone_offset_hours_utc',
  'account_status',
  'disable_reason',
  'amount_spent',
  'balance',
  'spend_cap',
  'business{id,name}',
] as const;

export const graphAdAccountSchema = z.object({
  id: z.string().regex(/^act_\d+$/),
  account_id: z.string(),
  name: z.string().default(''),
  currency: z.string(),
  timezone_name: z.string(),
  timezone_offset_hours_utc: z.coerce.number().default(0),
  account_status: z.coerce.number().int(),
  disable_reason: z.coerce.number().int().default(0),
  amount_spent: minorAmount.default(0),
  balance: minorAmount.default(0),
  spend_cap: minorAmount.optional(),
  business: z.object({ id: z.string(), name: z.string().optional() }).optional(),
});

// `picture` is requested whole: its answer nests the URL under `data` (a ProfilePictureSource).
export const PAGE_FIELDS = ['id', 'name', 'category', 'picture', 'tasks', 'access_token'] as const;

export const graphPageObjectSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  category: z.string().optional(),
  picture: z.object({ data: z.object({ url: z.string().optional() }).optional() }).optional(),
  tasks: z.array(z.string()).default([]),
  access_token: z.string().optional(),
});

export const PIXEL_FIELDS = ['id', 'name', 'last_fired_time', 'owner_business{id}'] as const;

export const graphPixelSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  /** ISO-8601 with a `+hhmm` offset (reference §0). */
  last_fired_time: z.string().optional(),
  owner_business: z.object({ id: z.string() }).optional(),
});

// Ad images and videos (reference §7).

/** `POST /act_<id>/adimages`: keyed by the uploaded file name. */
export const graphImageUploadSchema = z.object({
  images: z.record(z.string(), z.object({ hash: z.string().min(1), url: z.string().optional() })),
});

/** `upload_phase=start`: offsets are numeric strings. */
export const graphVideoStartSchema = z.object({
  video_id: z.coerce.string(),
  upload_session_id: z.coerce.string(),
  start_offset: z.coerce.number().int().nonnegative(),
  end_offset: z.coerce.number().int().nonnegative(),
});

/** `upload_phase=transfer`: the next chunk the platform expects; done when both are equal. */
export const graphVideoOffsetsSchema = z.object({
  start_offset: z.coerce.number().int().nonnegative(),
  end_offset: z.coerce.number().int().nonnegative(),
});

export const graphSuccessSchema = z.object({ success: z.boolean() });

export const VIDEO_FIELDS = ['id', 'title', 'description', 'status', 'picture'] as const;

export const graphVideoSchema = z.object({
  id: z.coerce.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  picture: z.string().optional(),
  status: z
    .object({
      video_status: z.string(),
      processing_progress: z.coerce.number().optional(),
      processing_phase: z
        .object({ status: z.string().optional(), errors: z.array(z.object({ code: z.coerce.number().optional(), message: z.string().optional() })).optional() })
        .optional(),
    })
    .optional(),
});
