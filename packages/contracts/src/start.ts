import { z } from 'zod';
import { taskStatusSchema } from './assets.ts';
import { idSchema, pageBodySchema } from './envelope.ts';
import { text } from './text.ts';

/**
 * Start management (启动管理 /advertising/start, issue 8): campaigns (from the mirrors, in the
 * caller's data scope) or whole publish schemes switched on now or at a wall time — in each
 * target market's zone (the ad account's) or one chosen zone — and optionally off again at a
 * later time (day-parting). Each switch is a start task (the `publish-start` job the wizard's
 * "start at a time" also queues); its per-object results are the operation log's rows of that
 * task (actor kind `start_task`).
 */

export const START_PATHS = ['/advertising/start'] as const;

export const START_ACTIONS = ['activate', 'pause'] as const;
export const startActionSchema = z.enum(START_ACTIONS);
export type StartAction = z.infer<typeof startActionSchema>;

/** Objects one request may switch. */
export const START_LIMITS = { campaigns: 500, schemes: 50 } as const;

/** A wall time `YYYY-MM-DDTHH:mm` as people type it. */
export const wallTimeSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'wall_time');

/** `market`: each ad account's own zone (the target market's); otherwise an IANA zone. */
export const startZoneSchema = text()
  .trim()
  .max(64)
  .refine((z) => {
    if (z === 'market') return true;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: z });
      return true;
    } catch {
      return false;
    }
  }, 'time_zone');

export const startWhenSchema = z.discriminatedUnion('mode', [z.object({ mode: z.literal('now') }), z.object({ mode: z.literal('at'), local: wallTimeSchema, zone: startZoneSchema })]);
export type StartWhen = z.infer<typeof startWhenSchema>;

export const createStartBodySchema = z
  .object({
    campaign_ids: z.array(idSchema).max(START_LIMITS.campaigns).default([]),
    scheme_ids: z.array(idSchema).max(START_LIMITS.schemes).default([]),
    /** When to switch on. */
    on: startWhenSchema,
    /** Off again at this wall time (same zone rule as `on`; for day-parting); null: stays on. */
    off: z.object({ local: wallTimeSchema, zone: startZoneSchema }).nullable().default(null),
  })
  .refine((b) => b.campaign_ids.length + b.scheme_ids.length > 0, { message: 'targets', path: ['campaign_ids'] });
export type CreateStartBody = z.infer<typeof createStartBodySchema>;

export const createStartResultSchema = z.object({ task_ids: z.array(z.number().int()) });

const ref = z.object({ id: z.number().int(), name: z.string() });

export const startTaskSchema = z.object({
  id: z.number().int(),
  action: startActionSchema,
  status: taskStatusSchema,
  /** When it runs (UTC); null: at once. */
  start_at: z.string().nullable(),
  /** The zone the time was typed in (an IANA name), null for "now". */
  zone: z.string().nullable(),
  /** The wall time typed, in `zone`. */
  local: z.string().nullable(),
  campaigns: z.number().int(),
  schemes: z.array(ref),
  created_by: ref.nullable(),
  queued_at: z.string(),
  finished_at: z.string().nullable(),
  /** Log rows of the task: switched, failed. */
  ok: z.number().int(),
  failed: z.number().int(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  /** The switch-on task this switch-off belongs to (day-parting). */
  on_task_id: z.number().int().nullable(),
});
export type StartTask = z.infer<typeof startTaskSchema>;

export const listStartTasksBodySchema = pageBodySchema.extend({
  status: taskStatusSchema.optional(),
  action: startActionSchema.optional(),
});
export type ListStartTasksBody = z.infer<typeof listStartTasksBodySchema>;

/** One object's result in a task: a row of the operation log. */
export const startResultSchema = z.object({
  id: z.number().int(),
  object_id: z.number().int().nullable(),
  object_platform_id: z.string(),
  object_name: z.string(),
  ad_account: ref.nullable(),
  result: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type StartResult = z.infer<typeof startResultSchema>;

/** Campaigns to pick (mirrors in the caller's scope). */
export const listStartCampaignsBodySchema = pageBodySchema.extend({
  keyword: text().trim().max(100).optional(),
  ad_account_id: idSchema.optional(),
  status: z.enum(['ACTIVE', 'PAUSED']).optional(),
});
export type ListStartCampaignsBody = z.infer<typeof listStartCampaignsBodySchema>;

export const startCampaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  platform_id: z.string(),
  status: z.string(),
  effective_status: z.string().nullable(),
  ad_account: ref.extend({ timezone_name: z.string() }),
  scheme: ref.nullable(),
});
export type StartCampaign = z.infer<typeof startCampaignSchema>;

/** Schemes to pick (the caller's scope), with the campaigns they created. */
export const listStartSchemesBodySchema = pageBodySchema.extend({ keyword: text().trim().max(100).optional() });
export type ListStartSchemesBody = z.infer<typeof listStartSchemesBodySchema>;

export const startSchemeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  campaigns: z.number().int(),
  created_by: ref,
  created_at: z.string(),
});
export type StartScheme = z.infer<typeof startSchemeSchema>;

/** The data a `publish-start` run carries (the wizard's `{scheme_id}` stays valid). */
export interface StartJobData {
  scheme_id?: number;
  scheme_ids?: number[];
  campaign_ids?: number[];
  /** Only these accounts' campaigns of the schemes (one task per market zone). */
  ad_account_ids?: number[];
  action?: StartAction;
  /** Who asked (the log's person); the wizard's runs use the scheme's author. */
  by?: number;
  zone?: string | null;
  local?: string | null;
  on_task_id?: number | null;
}
