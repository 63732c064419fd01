import { z } from 'zod';

/*
 * URL search params arrive as strings; these read them into the types list bodies expect, and
 * toSearchParams writes them back with String(), so "true" / "7" round-trip.
 */

/** "true" / "false" → boolean (anything else is refused and dropped by parseSearchParams). */
export const urlBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** A string of digits → integer. */
export const urlInt = z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v), z.number().int());
