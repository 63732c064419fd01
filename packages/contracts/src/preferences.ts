import { z } from 'zod';
import { text } from './text.ts';

/**
 * A user's own preferences kept on the server (GET/PUT /api/user-preferences), so a choice
 * follows the user to another browser. Each key family has its own value shape; a key outside
 * the families is refused, so the table only ever holds what a screen reads back.
 */

/** A column key of a table (a field name or a metric key). */
const columnKeySchema = text().trim().min(1).max(64).regex(/^[a-z0-9_.]+$/i, 'column_key');

/** A named set of columns a user saved in a table's column chooser. */
export const columnSetSchema = z.strictObject({
  name: text().trim().min(1).max(40),
  /** The columns shown, in the order shown. */
  columns: z.array(columnKeySchema).min(1).max(200),
});
export type ColumnSet = z.infer<typeof columnSetSchema>;

/**
 * `columns:<table>`: the columns a user hides in one table, and their saved sets. Only hidden keys
 * are stored for the current view, so a column added later shows up by default.
 */
export const columnPrefsSchema = z.strictObject({
  hidden: z.array(columnKeySchema).max(200),
  sets: z.array(columnSetSchema).max(20).default([]),
});
export type ColumnPrefs = z.infer<typeof columnPrefsSchema>;

/** Key families and the value each holds. */
export const preferenceFamilies = { columns: columnPrefsSchema } as const;
export type PreferenceFamily = keyof typeof preferenceFamilies;

/** `<family>:<name>`, e.g. `columns:/auth/account` (a screen path, optionally with a table suffix). */
export const preferenceKeySchema = text()
  .trim()
  .max(120)
  .regex(/^(columns):[a-z0-9/_.-]{1,100}$/i, 'preference_key');

/** Largest stored value (JSON characters): preferences are small by nature. */
export const PREFERENCE_MAX_CHARS = 16_000;
/** Most keys one user holds. */
export const PREFERENCE_MAX_KEYS = 200;

export const getPreferenceQuerySchema = z.object({ key: preferenceKeySchema });

/**
 * The value a key holds is checked against its family's schema (one family today: columns).
 * An object schema, so the body's fields are declared like every other body's.
 */
export const putPreferenceBodySchema = z
  .object({ key: preferenceKeySchema, value: columnPrefsSchema })
  .superRefine((body, ctx) => {
    if (JSON.stringify(body.value).length > PREFERENCE_MAX_CHARS) ctx.addIssue({ code: 'custom', path: ['value'], message: 'too_big' });
  });
export type PutPreferenceBody = z.input<typeof putPreferenceBodySchema>;

/** The value schema of each key family (a key's family is the part before the colon). */
export type PreferenceValue<F extends PreferenceFamily> = z.infer<(typeof preferenceFamilies)[F]>;

/** A stored preference; `value` null when the user has none under the key yet. */
export const preferenceSchema = z.object({
  key: z.string(),
  value: z.unknown().nullable(),
  updated_at: z.string().nullable(),
});
export type Preference = z.infer<typeof preferenceSchema>;
