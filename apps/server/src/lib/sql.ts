/** Escapes %, _ and \ so user text matches literally inside ILIKE patterns. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/** A PostgreSQL unique violation (a name or domain already taken), to answer with a field error. */
export const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';
