import { z } from 'zod';

/**
 * The shared building blocks of every string field of a request body: text, days, instants and
 * links. Each refuses what must never reach the database or a page, as a field error (code -2
 * with data.errors), instead of a database error later. Response schemas need none of this.
 */

// In a browser, the page's Content-Security-Policy forbids eval: zod's probe for it (`new Function`)
// would be reported as a violation. Without the probe zod parses the same, only without its JIT.
if ('document' in globalThis) z.config({ jitless: true });

/** NUL (PostgreSQL text cannot hold it) and lone UTF-16 surrogates (not Unicode: they would be stored as U+FFFD). */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const BAD_CHARS = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a text holds a character no field takes (file names and other texts outside zod use it too). */
export function hasBadChars(value: string): boolean {
  return BAD_CHARS.test(value);
}

/** Every text field starts here: a string without NUL or lone surrogates. Chain trim/min/max/regex as usual. */
export function text() {
  return z.string().refine((v) => !BAD_CHARS.test(v), { message: 'text_chars' });
}

/** A day, `YYYY-MM-DD`, that exists (2026-02-30 does not). */
export const daySchema = z.iso.date({ message: 'date' });

/** An instant, ISO 8601 with `Z` or an offset, that exists (no 2026-02-30, no 24:00 or :60). */
export const instantSchema = z.iso.datetime({ offset: true, message: 'datetime' });

/**
 * A link people or the platform will open: http or https only (never javascript:, data:, file:),
 * trimmed, at most `max` characters.
 */
export function httpUrl(max = 1000) {
  return text().trim().max(max).pipe(z.url({ protocol: /^https?$/, message: 'http_url' }));
}
