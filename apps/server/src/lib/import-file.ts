import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse as parseCsv } from 'csv-parse';
import sax from 'sax';
import yauzl from 'yauzl';
import { AppError } from '../errors.ts';

/**
 * The one reader of imported spreadsheets (catalogs now, orders next): .csv and .xlsx, streamed row
 * by row, with caps that keep a hostile file from taking the process down.
 *
 *   const file = await openImportFile('dramas.xlsx', bytes, { limits: { maxRows: 20_000 }, field: 'content_base64' });
 *   file.headers;                     // ['剧集ID', '剧名', …]: row 1, trimmed
 *   for await (const r of file.rows)  // { row: 2, values: { 剧集ID: '00123', 剧名: 'First', … }, links: {} }
 *   // or file.close() when the header alone says no
 *
 * - Row 1 is the header. Each data row comes back as text keyed by its header (columns whose
 *   header is blank are dropped; of two columns with one header the first wins), with its 1-based
 *   row number as a spreadsheet shows it, so messages can point at the row a person sees. Rows
 *   with nothing in any headed column are skipped.
 * - Values are trimmed text: numbers as written by JavaScript ("80", "1299.5"), dates as
 *   YYYY-MM-DD, booleans "true"/"false", formulas as their cached result, rich text joined. An
 *   xlsx cell with a hyperlink gives its text (or the target when it has none) in `values`, and
 *   the target in `links`.
 * - CSV: UTF-8 (with or without BOM), else GB18030 (a superset of GBK, as Excel writes CSV on
 *   Chinese Windows); the separator is the most frequent of `,` `;` and tab in the header line.
 *   xlsx: the first worksheet that has any row.
 * - Caps (ImportLimits) on data rows, columns, characters in a cell and bytes unpacked (the CSV's
 *   size; for an xlsx, the parts read, checked against the sizes the zip declares before inflating
 *   and against the bytes actually inflated while streaming). Passing one, or an unreadable file,
 *   throws an AppError (code -2, IMPORT_*) naming the cap, on `options.field`: from
 *   `openImportFile` or from the row iteration, whichever meets it. Callers that want all or
 *   nothing read every row before writing.
 */

export interface ImportLimits {
  /** Data rows (the header excluded, blank rows not counted). */
  maxRows: number;
  /** The rightmost column holding a value, counted from 1 (A). */
  maxColumns: number;
  /** Characters in one cell (Excel's own limit is 32,767). */
  maxCellChars: number;
  /** Bytes of text to parse: the CSV file, or the xlsx parts once inflated. */
  maxUnpackedBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxRows: 100_000,
  maxColumns: 200,
  maxCellChars: 32_767,
  maxUnpackedBytes: 100 * 1024 * 1024,
};

export interface ImportRow {
  /** 1-based, as the spreadsheet shows it (the header is row 1). */
  row: number;
  /** Trimmed text by header; '' for a blank cell. */
  values: Record<string, string>;
  /** Hyperlink targets (xlsx) by header, for cells that carry one. */
  links: Record<string, string>;
}

export interface ImportFile {
  /** Row 1, trimmed, in column order ('' for a blank header cell). */
  headers: string[];
  /** The data rows, read as they are iterated (once); the file is released when the loop ends. */
  rows: AsyncIterable<ImportRow>;
  /** Releases the file without reading the rows (e.g. after refusing the header). Safe to call twice. */
  close(): Promise<void>;
}

export interface ImportOptions {
  limits?: Partial<ImportLimits>;
  /** The request field that carried the file: errors name it, so a form shows them there. */
  field?: string;
}

/** A file to read: its bytes, or a path on disk. */
export type ImportSource = Buffer | { path: string };

/** One cell of a row as read: its text and, for an xlsx hyperlink, the target. */
interface RawCell {
  text: string;
  link?: string;
}
interface RawRow {
  row: number;
  /** 1-based column → cell; only cells with text. */
  cells: Map<number, RawCell>;
}

class Reader {
  constructor(
    readonly limits: ImportLimits,
    readonly field: string | undefined,
  ) {}
  fail(key: 'IMPORT_UNREADABLE' | 'IMPORT_TOO_LARGE' | 'IMPORT_TOO_MANY_ROWS' | 'IMPORT_TOO_MANY_COLUMNS' | 'IMPORT_CELL_TOO_LONG' | 'IMPORT_ROW_TOO_LONG', params: Record<string, unknown> = {}): never {
    throw new AppError(key, params, this.field);
  }
  unreadable(reason: string): never {
    return this.fail('IMPORT_UNREADABLE', { reason: reason.slice(0, 200) });
  }
  tooLarge(): never {
    return this.fail('IMPORT_TOO_LARGE', { max: `${Math.round(this.limits.maxUnpackedBytes / 1024 / 1024)} MB` });
  }
  /** Refuses a cell's text past the caps; `row`/`col` are 1-based. */
  checkCell(row: number, col: number, text: string) {
    if (col > this.limits.maxColumns) this.fail('IMPORT_TOO_MANY_COLUMNS', { max: this.limits.maxColumns, cell: cellRef(row, col) });
    if (text.length > this.limits.maxCellChars) this.fail('IMPORT_CELL_TOO_LONG', { max: this.limits.maxCellChars, cell: cellRef(row, col) });
  }
}

/** Column 1 → "A", 28 → "AB". */
function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
const cellRef = (row: number, col: number) => `${columnName(col)}${row}`;

/**
 * An uploaded file's bytes from base64, optionally as a data: URL (what a browser's FileReader
 * gives); not base64 → IMPORT_UNREADABLE on `field`.
 */
export function decodeBase64File(content: string, field?: string): Buffer {
  const body = content.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) throw new AppError('IMPORT_UNREADABLE', { reason: 'not base64' }, field);
  return Buffer.from(body, 'base64');
}

/** Opens an import file and reads its header; see the module comment for what comes back. */
export async function openImportFile(filename: string, source: ImportSource, options: ImportOptions = {}): Promise<ImportFile> {
  const reader: Reader = new Reader({ ...DEFAULT_IMPORT_LIMITS, ...options.limits }, options.field);
  let raw: AsyncGenerator<RawRow>;
  if (/\.xlsx$/i.test(filename)) raw = xlsxRows(source, reader);
  else if (/\.csv$/i.test(filename)) raw = csvRows(source, reader);
  else reader.unreadable('only .csv and .xlsx files are read');

  const first = await raw.next();
  const headerRow = !first.done && first.value.row === 1 ? first.value : null;
  const headers: string[] = [];
  if (headerRow) for (const [col, cell] of headerRow.cells) headers[col - 1] = cell.text;
  for (let i = 0; i < headers.length; i++) headers[i] ??= '';
  // Header → column (the first column of a repeated header).
  const columns = new Map<string, number>();
  headers.forEach((h, i) => {
    if (h && !columns.has(h)) columns.set(h, i + 1);
  });
  const pending = headerRow || first.done ? null : first.value;

  async function* rows(): AsyncGenerator<ImportRow> {
    let count = 0;
    try {
      for (let next = pending ?? (await raw.next()).value; next; next = (await raw.next()).value) {
        const values: Record<string, string> = Object.create(null);
        const links: Record<string, string> = Object.create(null);
        let any = false;
        for (const [header, col] of columns) {
          const cell = next.cells.get(col);
          values[header] = cell?.text ?? '';
          if (cell?.link) links[header] = cell.link;
          if (cell?.text) any = true;
        }
        if (!any) continue;
        if (++count > reader.limits.maxRows) reader.fail('IMPORT_TOO_MANY_ROWS', { max: reader.limits.maxRows });
        yield { row: next.row, values, links };
      }
    } finally {
      await raw.return(undefined);
    }
  }
  return {
    headers,
    rows: rows(),
    close: async () => {
      await raw.return(undefined);
    },
  };
}

// ---- CSV -------------------------------------------------------------------------------------

const CSV_CHUNK = 64 * 1024;

function sourceSize(source: ImportSource): number {
  return Buffer.isBuffer(source) ? source.length : fs.statSync(source.path).size;
}

function sourceChunks(source: ImportSource): AsyncIterable<Buffer> | Iterable<Buffer> {
  if (!Buffer.isBuffer(source)) return fs.createReadStream(source.path, { highWaterMark: CSV_CHUNK }) as AsyncIterable<Buffer>;
  return (function* () {
    for (let i = 0; i < source.length; i += CSV_CHUNK) yield source.subarray(i, i + CSV_CHUNK);
  })();
}

/** Whether the bytes are valid UTF-8, checked chunk by chunk (a character may span two). */
async function isUtf8Source(source: ImportSource): Promise<boolean> {
  if (Buffer.isBuffer(source)) return isUtf8(source);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of sourceChunks(source)) decoder.decode(chunk, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** The separator of the header line: the most frequent of `,` `;` and tab (Excel in some locales uses `;`). */
function guessDelimiter(text: string): string {
  const end = text.search(/\r?\n/);
  const header = end < 0 ? text : text.slice(0, end);
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length] as const);
  return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

async function* decodedChunks(source: ImportSource, encoding: string): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  for await (const chunk of sourceChunks(source)) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function* csvRows(source: ImportSource, reader: Reader): AsyncGenerator<RawRow> {
  if (sourceSize(source) > reader.limits.maxUnpackedBytes) reader.tooLarge();
  const chunks = decodedChunks(source, (await isUtf8Source(source)) ? 'utf-8' : 'gb18030');
  const first = await chunks.next();
  const head = first.done ? '' : first.value.replace(/^\uFEFF/, '');
  const parser = parseCsv({
    delimiter: guessDelimiter(head),
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: false,
    // Bounds what one unterminated quote can make it buffer; the exact cap per cell is checked below.
    max_record_size: reader.limits.maxCellChars * 4 + 1024,
  });
  const input = Readable.from(
    (async function* () {
      if (head) yield head;
      yield* chunks;
    })(),
  );
  input.once('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let rowNumber = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rowNumber++;
      const cells = new Map<number, RawCell>();
      record.forEach((value, i) => {
        const text = value.trim();
        if (!text) return;
        reader.checkCell(rowNumber, i + 1, text);
        cells.set(i + 1, { text });
      });
      if (cells.size) yield { row: rowNumber, cells };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // `records`: how many the parser had finished when it gave up (it reads ahead of this loop).
    const { code, records } = err as { code?: string; records?: number };
    if (code === 'CSV_MAX_RECORD_SIZE') reader.fail('IMPORT_ROW_TOO_LONG', { max: reader.limits.maxCellChars, row: (records ?? rowNumber) + 1 });
    reader.unreadable((err as Error).message);
  } finally {
    input.destroy();
    parser.destroy();
  }
}

// ---- xlsx ------------------------------------------------------------------------------------

/** More parts than any spreadsheet has: reading the central directory stays cheap. */
const MAX_ZIP_ENTRIES = 10_000;
const REL_HYPERLINK = /\/hyperlink$/;

function openZip(source: ImportSource): Promise<yauzl.ZipFile> {
  // lazyEntries: entries are listed on demand; validateEntrySizes: inflating past an entry's
  // declared size is an error (a zip that lies about its sizes).
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true };
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip: yauzl.ZipFile) => (err ? reject(err) : resolve(zip));
    if (Buffer.isBuffer(source)) yauzl.fromBuffer(source, options, done);
    else yauzl.open(source.path, options, done);
  });
}

function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    zip.on('entry', (entry: yauzl.Entry) => {
      // Part names are case-insensitive (ECMA-376 Part 2 §6.2.2.3).
      entries.set(entry.fileName.toLowerCase(), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))));
}

type Handlers = Pick<sax.SAXParser, 'onopentag' | 'onclosetag' | 'ontext' | 'oncdata'>;

/** `x:row` → `row`: some writers prefix the spreadsheet namespace. */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** The value of an attribute by local name (`r:id` → `id`), optionally only a prefixed one. */
function attr(tag: sax.Tag | sax.QualifiedTag, name: string, prefixed = false): string | undefined {
  for (const [key, value] of Object.entries(tag.attributes)) {
    const i = key.indexOf(':');
    if ((prefixed ? i > 0 : true) && key.slice(i + 1) === name) return typeof value === 'string' ? value : value.value;
  }
  return undefined;
}

/** Resolves a relationship target against the folder of the part that names it. */
function resolvePart(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1).toLowerCase();
  const parts = from.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg && seg !== '.') parts.push(seg);
  }
  return parts.join('/').toLowerCase();
}
const relsOf = (part: string) => {
  const i = part.lastIndexOf('/');
  return `${part.slice(0, i + 1)}_rels/${part.slice(i + 1)}.rels`;
};

/** Built-in number formats that show dates or times (ECMA-376 Part 1 §18.8.30, with the CJK ones). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);
/** A custom format code shows a date when, outside quotes, escapes and [colours], it has y m d h or s. */
const isDateCode = (code: string) => /[ymdhs]/i.test(code.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/\[[^\]]*\]/g, '').replace(/general/gi, ''));

/** An Excel serial day as YYYY-MM-DD (1900 system, or 1904 when the workbook says so). */
function serialToDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial - (date1904 ? 24107 : 25569)) * 86_400_000);
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(serial) : d.toISOString().slice(0, 10);
}

async function* xlsxRows(source: ImportSource, reader: Reader): AsyncGenerator<RawRow> {
  const { limits } = reader;
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(source);
  } catch (err) {
    return reader.unreadable(`not an xlsx file (${(err as Error).message})`);
  }
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES) reader.unreadable(`more than ${MAX_ZIP_ENTRIES} parts`);
    let entries: Map<string, yauzl.Entry>;
    try {
      entries = await listEntries(zip);
    } catch (err) {
      return reader.unreadable((err as Error).message);
    }

    // Bytes inflated so far; each part counts once even when read twice.
    let unpacked = 0;
    const counted = new Set<string>();

    /** Streams one part through a SAX parser with these handlers. */
    async function parsePart(name: string, handlers: Partial<Handlers>): Promise<void> {
      for await (const _ of streamPart(name, handlers));
    }
    /**
     * Streams one part, pausing after every inflated chunk (the caller drains what the handlers
     * queued); `stop.now` set by a handler ends the read there.
     */
    async function* streamPart(name: string, handlers: Partial<Handlers>, stop?: { now: boolean }): AsyncGenerator<void> {
      const entry = entries.get(name);
      if (!entry) return;
      const first = !counted.has(name);
      if (first) {
        // The declared size first: a zip bomb that admits its size is refused before inflating anything.
        if (unpacked + entry.uncompressedSize > limits.maxUnpackedBytes) reader.tooLarge();
        counted.add(name);
      }
      const parser = sax.parser(true, { trim: false, normalize: false, position: false });
      Object.assign(parser, handlers);
      parser.onerror = (err) => {
        throw err;
      };
      let stream: Readable;
      try {
        stream = await openEntry(zip, entry);
      } catch (err) {
        return reader.unreadable((err as Error).message);
      }
      const text = new StringDecoder('utf8');
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          if (first) {
            // And the bytes actually inflated, as they come: whatever the zip declares.
            unpacked += chunk.length;
            if (unpacked > limits.maxUnpackedBytes) reader.tooLarge();
          }
          parser.write(text.write(chunk));
          yield;
          if (stop?.now) return;
        }
        parser.write(text.end());
        parser.close();
      } catch (err) {
        if (err instanceof AppError) throw err;
        const message = (err as Error).message;
        return reader.unreadable(/too many bytes/.test(message) ? `a part is larger than the zip declares (${name})` : `${name}: ${message.split('\n')[0]}`);
      } finally {
        stream.destroy();
      }
    }

    /** Relationship id → { target part or URL, type }. */
    async function readRels(part: string) {
      const rels = new Map<string, { target: string; type: string; external: boolean }>();
      await parsePart(relsOf(part).toLowerCase(), {
        onopentag(tag) {
          if (local(tag.name) !== 'Relationship') return;
          const id = attr(tag, 'Id');
          const target = attr(tag, 'Target');
          if (!id || target === undefined) return;
          const external = attr(tag, 'TargetMode') === 'External';
          rels.set(id, { target: external ? target : resolvePart(part, target), type: attr(tag, 'Type') ?? '', external });
        },
      });
      return rels;
    }

    const root = await readRels('');
    const workbookPart = [...root.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
    if (!entries.has(workbookPart)) reader.unreadable('not an xlsx file (no workbook)');

    const sheetIds: string[] = [];
    let date1904 = false;
    await parsePart(workbookPart, {
      onopentag(tag) {
        const name = local(tag.name);
        if (name === 'sheet') {
          const id = attr(tag, 'id', true);
          if (id) sheetIds.push(id);
        } else if (name === 'workbookPr') {
          date1904 = ['1', 'true'].includes(attr(tag, 'date1904') ?? '');
        }
      },
    });
    const workbookRels = await readRels(workbookPart);
    const partOfType = (suffix: string) => [...workbookRels.values()].find((r) => r.type.endsWith(suffix))?.target;

    // Styles: which cell formats show numbers as dates.
    const dateStyles: boolean[] = [];
    const stylesPart = partOfType('/styles');
    if (stylesPart) {
      const customDates = new Set<number>();
      let inCellXfs = false;
      await parsePart(stylesPart, {
        onopentag(tag) {
          const name = local(tag.name);
          if (name === 'numFmt') {
            const id = Number(attr(tag, 'numFmtId'));
            if (isDateCode(attr(tag, 'formatCode') ?? '')) customDates.add(id);
          } else if (name === 'cellXfs') inCellXfs = true;
          else if (name === 'xf' && inCellXfs) {
            const id = Number(attr(tag, 'numFmtId') ?? 0);
            dateStyles.push(BUILTIN_DATE_FORMATS.has(id) || customDates.has(id));
          }
        },
        onclosetag(name) {
          if (local(name) === 'cellXfs') inCellXfs = false;
        },
      });
    }

    // Shared strings, each kept to one character past the cell cap (enough to refuse it when used).
    const shared: string[] = [];
    const sharedPart = partOfType('/sharedStrings');
    if (sharedPart) {
      let current: string | null = null;
      let inT = false;
      let phonetic = 0;
      const append = (t: string) => {
        if (current !== null && inT && !phonetic && current.length <= limits.maxCellChars) current = (current + t).slice(0, limits.maxCellChars + 1);
      };
      await parsePart(sharedPart, {
        onopentag(tag) {
          const name = local(tag.name);
          if (name === 'si') current = '';
          else if (name === 't') inT = true;
          else if (name === 'rPh') phonetic++;
        },
        onclosetag(tagName) {
          const name = local(tagName);
          if (name === 'si') {
            shared.push(current ?? '');
            current = null;
          } else if (name === 't') inT = false;
          else if (name === 'rPh') phonetic--;
        },
        ontext: append,
        oncdata: append,
      });
    }

    for (const id of sheetIds) {
      const rel = workbookRels.get(id);
      if (!rel || rel.external || !rel.type.endsWith('/worksheet') || !entries.has(rel.target)) continue;
      const sheetPart = rel.target;

      // Hyperlinks sit after the rows in the sheet: when the sheet has any, a first pass collects them.
      const links = new Map<string, string>();
      const sheetRels = await readRels(sheetPart);
      if ([...sheetRels.values()].some((r) => REL_HYPERLINK.test(r.type))) {
        await parsePart(sheetPart, {
          onopentag(tag) {
            if (local(tag.name) !== 'hyperlink') return;
            const ref = attr(tag, 'ref');
            const target = sheetRels.get(attr(tag, 'id', true) ?? '');
            if (!ref || !target || !REL_HYPERLINK.test(target.type)) return;
            // A range (A2:A9) links each of its cells; the cells of real ranges are few.
            const [from = '', to = from] = ref.toUpperCase().split(':');
            const a = parseRef(from);
            const b = parseRef(to);
            if (!a || !b || (b.row - a.row + 1) * (b.col - a.col + 1) > limits.maxColumns * 100) return;
            for (let r = a.row; r <= b.row; r++) for (let c = a.col; c <= b.col; c++) if (links.size < limits.maxRows * 10) links.set(cellRef(r, c), target.target);
          },
        });
      }

      const queue: RawRow[] = [];
      const stop = { now: false };
      let row: RawRow | null = null;
      let lastRow = 0;
      let lastCol = 0;
      let cell: { col: number; type: string; style: number; v: string; inline: string } | null = null;
      let inV = false;
      let inInlineT = false;
      let phonetic = 0;
      const keep = (s: string, t: string) => (s.length > limits.maxCellChars ? s : s + t);
      const onText = (t: string) => {
        if (!cell) return;
        if (inV) cell.v = keep(cell.v, t);
        else if (inInlineT && !phonetic) cell.inline = keep(cell.inline, t);
      };
      const valueOf = (c: NonNullable<typeof cell>): string => {
        switch (c.type) {
          case 's':
            return shared[Number(c.v)] ?? '';
          case 'inlineStr':
            return c.inline;
          case 'str':
          case 'e':
            return c.v;
          case 'b':
            return c.v.trim() === '' ? '' : String(c.v.trim() === '1' || c.v.trim() === 'true');
          case 'd':
            return /^\d{4}-\d{2}-\d{2}/.test(c.v) ? c.v.slice(0, 10) : c.v;
          default: {
            if (c.v.trim() === '') return c.inline;
            const n = Number(c.v);
            if (!Number.isFinite(n)) return '';
            return dateStyles[c.style] ? serialToDate(n, date1904) : String(n);
          }
        }
      };
      const handlers: Partial<Handlers> = {
        onopentag(tag) {
          switch (local(tag.name)) {
            case 'row': {
              const r = Number(attr(tag, 'r'));
              lastRow = Number.isInteger(r) && r > 0 ? r : lastRow + 1;
              lastCol = 0;
              row = { row: lastRow, cells: new Map() };
              break;
            }
            case 'c': {
              const ref = attr(tag, 'r');
              const parsed = ref ? parseRef(ref.toUpperCase()) : null;
              lastCol = parsed ? parsed.col : lastCol + 1;
              cell = { col: lastCol, type: attr(tag, 't') ?? 'n', style: Number(attr(tag, 's') ?? 0), v: '', inline: '' };
              break;
            }
            case 'v':
              inV = true;
              break;
            case 't':
              inInlineT = true;
              break;
            case 'rPh':
              phonetic++;
              break;
          }
        },
        onclosetag(tagName) {
          switch (local(tagName)) {
            case 'v':
              inV = false;
              break;
            case 't':
              inInlineT = false;
              break;
            case 'rPh':
              phonetic--;
              break;
            case 'c': {
              if (!cell || !row) break;
              const text = valueOf(cell).trim();
              const link = links.get(cellRef(row.row, cell.col));
              if (text || link) {
                reader.checkCell(row.row, cell.col, text || link!);
                row.cells.set(cell.col, { text: text || link!, ...(link && { link }) });
              }
              cell = null;
              break;
            }
            case 'row':
              if (row?.cells.size) queue.push(row);
              row = null;
              break;
            case 'sheetData':
              stop.now = true;
              break;
          }
        },
        ontext: onText,
        oncdata: onText,
      };
      let any = false;
      for await (const _ of streamPart(sheetPart, handlers, stop)) {
        while (queue.length) {
          any = true;
          yield queue.shift()!;
        }
      }
      while (queue.length) {
        any = true;
        yield queue.shift()!;
      }
      if (any) return;
    }
  } finally {
    zip.close();
  }
}

/** "AB12" → { row: 12, col: 28 }. */
function parseRef(ref: string): { row: number; col: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/.exec(ref);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]!) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]), col };
}
