import type { CatalogColumn } from '@ads/contracts';
import { AppError } from '../../errors.ts';
import { decodeBase64File, openImportFile } from '../../lib/import-file.ts';

/**
 * Reading drama / product catalog files (docs/api-assets.md "Catalog files") with the shared
 * import reader (lib/import-file.ts: .csv in UTF-8 or GBK, .xlsx, streamed with caps). Row 1 is
 * the header, in English or Chinese; every value comes back as trimmed text with its 1-based
 * spreadsheet row number, so messages point at the row a person sees.
 */

/** Most rows one import takes; bigger catalogs are split (all rows are checked before any is written). */
export const MAX_CATALOG_ROWS = 20_000;
/** Bytes a catalog file may unpack to: a full one of 20,000 rows is about 12 MB of sheet XML. */
export const MAX_CATALOG_UNPACKED_BYTES = 32 * 1024 * 1024;

export interface CatalogRow {
  /** 1-based, as the spreadsheet shows it (the header is row 1). */
  row: number;
  values: Record<string, string>;
}

export interface CatalogSheet {
  /** Keys of the columns the header holds (a missing optional column keeps existing values on update). */
  columns: Set<string>;
  rows: CatalogRow[];
}

/** Header text → comparable form: case, spaces, `_` and `-` do not matter ("External ID" = external_id). */
const normalise = (h: string) => h.replace(/^\uFEFF/, '').toLowerCase().replace(/[\s_\-（）()]+/g, '');

function headerIndex(columns: readonly CatalogColumn[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const c of columns) for (const name of [c.key, c.zh, ...(c.aliases ?? [])]) index.set(normalise(name), c.key);
  return index;
}

/** The request field that carries the file: errors about the file point at it. */
const FIELD = 'content_base64';

/** The file's bytes: base64, optionally as a data: URL (what a browser's FileReader gives). */
export const decodeBase64 = (content: string): Buffer => decodeBase64File(content, FIELD);

/** Reads a catalog file; refuses (AppError) unreadable files, missing required columns, no or too many rows. */
export async function readCatalogFile(filename: string, bytes: Buffer, columns: readonly CatalogColumn[]): Promise<CatalogSheet> {
  const file = await openImportFile(filename, bytes, { limits: { maxRows: MAX_CATALOG_ROWS, maxUnpackedBytes: MAX_CATALOG_UNPACKED_BYTES }, field: FIELD });
  const index = headerIndex(columns);
  const links = new Set(columns.filter((c) => c.isLink).map((c) => c.key));

  // Key → the header that holds it (the first of several); unknown headers (an exported "site" column, notes) are ignored.
  const headerOf = new Map<string, string>();
  for (const header of file.headers) {
    const key = index.get(normalise(header));
    if (key && !headerOf.has(key)) headerOf.set(key, header);
  }
  const missing = columns.filter((c) => c.required && !headerOf.has(c.key));
  if (missing.length) {
    await file.close();
    throw new AppError('CATALOG_MISSING_COLUMNS', { columns: missing.map((c) => `${c.key} (${c.zh})`).join(', ') }, FIELD);
  }

  const rows: CatalogRow[] = [];
  for await (const r of file.rows) {
    const values: Record<string, string> = {};
    let any = false;
    for (const [key, header] of headerOf) {
      // A hyperlink cell gives its target in link columns, its text elsewhere.
      const text = (links.has(key) ? r.links[header] : undefined) ?? r.values[header] ?? '';
      values[key] = text;
      if (text) any = true;
    }
    // Rows blank in every known column (notes in other columns) are not data.
    if (any) rows.push({ row: r.row, values });
  }
  if (!rows.length) throw new AppError('CATALOG_EMPTY', {}, FIELD);
  return { columns: new Set(headerOf.keys()), rows };
}

/** Tags of a cell: separated by `,` `;` `、` (and their full-width forms), trimmed, deduplicated. */
export function splitTags(text: string): string[] {
  return [...new Set(text.split(/[,;、，；]/).map((t) => t.trim()).filter(Boolean))];
}
