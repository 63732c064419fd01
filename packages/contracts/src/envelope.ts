import { z } from 'zod';
import { text } from './text.ts';

/** Envelope schema for a given data schema (OpenAPI and client-side checks). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}

export const sortOrderSchema = z.enum(['ascend', 'descend']);

/**
 * A number sent as a JSON number or as a string of digits (form values). Unlike z.coerce it
 * refuses every other type: `true`, `[5]` or `{}` are wrong types, not 1 or 5 (a boolean must
 * never become the id of user 1).
 */
export function numberInput<T extends z.ZodNumber>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v), schema);
}

/**
 * A yes/no input: JSON true/false, or 1/0 as the 0/1 flags of SPEC.md (is_admin, is_leader) are
 * sent. Anything else is a wrong type. Parses to a boolean.
 */
export const flagInput = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);

/** Every list body (API.md "Lists"). */
export const pageBodySchema = z.object({
  page: numberInput(z.number().int().min(1).max(1_000_000)).default(1),
  page_size: numberInput(z.number().int().min(1).max(500)).default(20),
  sort_field: text().trim().max(64).optional(),
  sort_order: sortOrderSchema.optional(),
});
export type PageBody = z.infer<typeof pageBodySchema>;

/**
 * An export body's `columns`: the keys of the columns the list shows, in their order; the file
 * holds those columns only. Unknown or repeated keys are refused. Absent: the export's default set.
 */
export function exportColumnsSchema<const K extends readonly [string, ...string[]]>(keys: K) {
  return z
    .array(z.enum(keys))
    .min(1)
    .max(keys.length)
    .refine((a) => new Set(a).size === a.length, { message: 'Each column once' })
    .optional();
}

export function pageResultSchema<T extends z.ZodType>(row: T) {
  return z.object({ list: z.array(row), total: z.number().int() });
}

export const idSchema = numberInput(z.number().int().positive().max(2_147_483_647));
export const idBodySchema = z.object({ id: idSchema });
export type IdBody = z.infer<typeof idBodySchema>;

