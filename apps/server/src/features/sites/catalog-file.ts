import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { AppError } from '../../errors.ts';

/**
 * Reading drama / product catalog files (docs/api-assets.md "Catalog files"): .csv (UTF-8, with
 * or without BOM, or GB18030/GBK as Excel saves it on Chinese Windows; `,` `;` or tab separated)
 * and .xlsx (the first worksheet). Row 1 is the header, in English or Chinese; every value comes
 * back as trimmed text with its 1-based spreadsheet row number, so messages point at the row a
 * person sees.
 */

export interface CatalogColumn {
  key: string;
  zh: string;
  /** Other spellings people use in headers. */
  aliases?: string[];
  required: boolean;
  /** A link: an xlsx hyperlink cell gives its target rather than its display text. */
  isLink?: boolean;
}

export const DRAMA_COLUMNS: CatalogColumn[] = [
  { key: 'external_id', zh: '剧集ID', aliases: ['id', 'drama_id', '剧集编号'], required: true },
  { key: 'name', zh: '剧名', aliases: ['剧集名', '剧集名称', '名称'], required: true },
  { key: 'language', zh: '语言', aliases: ['lang'], required: true },
  { key: 'episode_count', zh: '集数', aliases: ['episodes', '总集数'], required: true },
  { key: 'cover_url', zh: '封面', aliases: ['cover', '封面链接'], required: false, isLink: true },
  { key: 'tags', zh: '标签', required: false },
  { key: 'test_status', zh: '测试状态', aliases: ['status', '状态'], required: false },
];

export const PRODUCT_COLUMNS: CatalogColumn[] = [
  { key: 'external_id', zh: '商品ID', aliases: ['id', 'product_id', 'sku', '商品编号'], required: true },
  { key: 'name', zh: '商品名', aliases: ['商品名称', '名称'], required: true },
  { key: 'url', zh: '链接', aliases: ['link', '商品链接'], required: true, isLink: true },
  { key: 'price', zh: '价格', required: true },
  { key: 'currency', zh: '币种', aliases: ['货币'], required: true },
  { key: 'cover_url', zh: '封面', aliases: ['cover', '封面链接'], required: false, isLink: true },
  { key: 'tags', zh: '标签', required: false },
];

/** Most rows one import takes; bigger catalogs are split (the whole file is checked in memory). */
export const MAX_CATALOG_ROWS = 20_000;

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

function headerIndex(columns: CatalogColumn[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const c of columns) for (const name of [c.key, c.zh, ...(c.aliases ?? [])]) index.set(normalise(name), c.key);
  return index;
}

const unreadable = (reason: string) => new AppError('CATALOG_UNREADABLE', { reason }, 'content_base64');

/** The file's bytes: base64, optionally as a data: URL (what a browser's FileReader gives). */
export function decodeBase64(content: string): Buffer {
  const body = content.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) throw unreadable('not base64');
  return Buffer.from(body, 'base64');
}

/** UTF-8 when the bytes are valid UTF-8, else GB18030 (a superset of GBK), as Excel writes CSV in China. */
function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

/** The separator of the header line: the most frequent of `,` `;` and tab (Excel in some locales uses `;`). */
function guessDelimiter(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length] as const);
  return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** A cell as text: rich text, hyperlinks, formulas' results, dates (as YYYY-MM-DD) and numbers. */
function cellText(value: ExcelJS.CellValue, preferLink: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((r) => r.text).join('').trim();
  if ('hyperlink' in value) {
    const text = typeof value.text === 'string' ? value.text : cellText(value.text as ExcelJS.CellValue, false);
    return (preferLink ? value.hyperlink || text : text || value.hyperlink).trim();
  }
  if ('error' in value) return String(value.error);
  if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue, preferLink);
  return '';
}

async function loadWorksheet(filename: string, bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    if (/\.xlsx$/i.test(filename)) {
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const sheet = workbook.worksheets.find((ws) => ws.actualRowCount > 0) ?? workbook.worksheets[0];
      if (!sheet) throw new Error('no worksheet');
      return sheet;
    }
    const text = decodeText(bytes);
    // Keep every value as the text in the file: exceljs would otherwise turn "00123" into 123 and
    // "2024-01-01" into a date.
    return await workbook.csv.read(Readable.from([text]), {
      map: (datum: string) => datum,
      parserOptions: { delimiter: guessDelimiter(text), trim: true, ignoreEmpty: false },
    } as Parameters<ExcelJS.Csv['read']>[1]);
  } catch (err) {
    throw unreadable(err instanceof Error ? err.message.slice(0, 200) : 'invalid file');
  }
}

/** Reads a catalog file; refuses (AppError) unreadable files, missing required columns, no or too many rows. */
export async function readCatalogFile(filename: string, bytes: Buffer, columns: CatalogColumn[]): Promise<CatalogSheet> {
  const sheet = await loadWorksheet(filename, bytes);
  const index = headerIndex(columns);
  const links = new Set(columns.filter((c) => c.isLink).map((c) => c.key));

  // Column number (1-based) → key, from row 1; unknown headers (an exported "site" column, notes) are ignored.
  const header = sheet.getRow(1);
  const keyAt = new Map<number, string>();
  header.eachCell({ includeEmpty: false }, (cell, col) => {
    const key = index.get(normalise(cellText(cell.value, false)));
    if (key && ![...keyAt.values()].includes(key)) keyAt.set(col, key);
  });
  const present = new Set(keyAt.values());
  const missing = columns.filter((c) => c.required && !present.has(c.key));
  if (missing.length) throw new AppError('CATALOG_MISSING_COLUMNS', { columns: missing.map((c) => `${c.key} (${c.zh})`).join(', ') }, 'content_base64');

  const rows: CatalogRow[] = [];
  let tooMany = false;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1 || tooMany) return;
    const values: Record<string, string> = {};
    let any = false;
    for (const [col, key] of keyAt) {
      const text = cellText(row.getCell(col).value, links.has(key));
      values[key] = text;
      if (text) any = true;
    }
    // Rows blank in every known column (trailing formatting, notes in other columns) are not data.
    if (!any) return;
    if (rows.length >= MAX_CATALOG_ROWS) tooMany = true;
    else rows.push({ row: rowNumber, values });
  });
  if (tooMany) throw new AppError('CATALOG_TOO_MANY_ROWS', { max: MAX_CATALOG_ROWS }, 'content_base64');
  if (!rows.length) throw new AppError('CATALOG_EMPTY', {}, 'content_base64');
  return { columns: present, rows };
}

/** Tags of a cell: separated by `,` `;` `、` (and their full-width forms), trimmed, deduplicated. */
export function splitTags(text: string): string[] {
  return [...new Set(text.split(/[,;、，；]/).map((t) => t.trim()).filter(Boolean))];
}
