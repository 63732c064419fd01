import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { inlineRow, xlsxBomb } from '../test/xlsx-bomb.ts';
import { openImportFile, type ImportOptions, type ImportRow, type ImportSource } from './import-file.ts';

/** Everything the reader gives for a file: headers and rows. */
async function readAll(filename: string, source: ImportSource | string, options?: ImportOptions) {
  const file = await openImportFile(filename, typeof source === 'string' ? Buffer.from(source) : source, options);
  const rows: ImportRow[] = [];
  for await (const r of file.rows) rows.push(r);
  return { headers: file.headers, rows: rows.map((r) => ({ row: r.row, values: { ...r.values }, ...(Object.keys(r.links).length && { links: { ...r.links } }) })) };
}

/** The AppError a read ends with (from opening or from the rows). */
async function refusal(filename: string, source: ImportSource | string, options?: ImportOptions): Promise<AppError> {
  try {
    await readAll(filename, source, options);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('the file was read without a refusal');
}

async function workbook(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('reading CSV', () => {
  it('gives rows keyed by header with spreadsheet row numbers, skipping blank rows, keeping text as written', async () => {
    const csv = '\uFEFFid, name ,price,\n00123,"First, with comma",1299.50,x\n\n,,\nA2,"multi\nline",,\n';
    expect(await readAll('a.csv', csv)).toEqual({
      headers: ['id', 'name', 'price'],
      rows: [
        { row: 2, values: { id: '00123', name: 'First, with comma', price: '1299.50' } },
        { row: 5, values: { id: 'A2', name: 'multi\nline', price: '' } },
      ],
    });
  });

  it('reads GBK (as Excel writes CSV on Chinese Windows) and semicolon or tab separated files', async () => {
    const gbk = Buffer.from('bee7bcaf49442cbee7c3fb0a47314b2cb9c5d7b0bee70a', 'hex'); // 剧集ID,剧名 / G1K,古装剧
    expect((await readAll('g.csv', gbk)).rows).toEqual([{ row: 2, values: { 剧集ID: 'G1K', 剧名: '古装剧' } }]);
    expect((await readAll('s.csv', 'a;b\n1;2\n')).rows).toEqual([{ row: 2, values: { a: '1', b: '2' } }]);
    expect((await readAll('t.csv', 'a\tb\n1\t2\n')).rows).toEqual([{ row: 2, values: { a: '1', b: '2' } }]);
  });

  it('reads a file on disk the same way', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-import-'));
    try {
      const file = path.join(dir, 'a.csv');
      fs.writeFileSync(file, 'a,b\n1,2\n');
      expect((await readAll('a.csv', { path: file })).rows).toEqual([{ row: 2, values: { a: '1', b: '2' } }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses past each cap with its own message, on the given field', async () => {
    const rows = await refusal('r.csv', 'a\n1\n2\n3\n', { limits: { maxRows: 2 }, field: 'content_base64' });
    expect([rows.key, rows.params, rows.field]).toEqual(['IMPORT_TOO_MANY_ROWS', { max: 2 }, 'content_base64']);
    expect(await refusal('c.csv', 'a,b,c\n1,2,3\n', { limits: { maxColumns: 2 } })).toMatchObject({ key: 'IMPORT_TOO_MANY_COLUMNS', params: { max: 2, cell: 'C1' } });
    expect(await refusal('l.csv', `a,b\n1,${'x'.repeat(11)}\n`, { limits: { maxCellChars: 10 } })).toMatchObject({ key: 'IMPORT_CELL_TOO_LONG', params: { max: 10, cell: 'B2' } });
    // An unterminated quote does not make it buffer the rest of the file.
    expect(await refusal('q.csv', `a,b\n1,"${'x'.repeat(100_000)}\n`, { limits: { maxCellChars: 10 } })).toMatchObject({ key: 'IMPORT_ROW_TOO_LONG', params: { row: 2 } });
    expect(await refusal('big.csv', 'a\n'.repeat(600), { limits: { maxUnpackedBytes: 1000 } })).toMatchObject({ key: 'IMPORT_TOO_LARGE' });
    expect(await refusal('x.txt', 'a\n1\n')).toMatchObject({ key: 'IMPORT_UNREADABLE' });
  });
});

describe('reading xlsx', () => {
  it('gives cell text: numbers, dates, booleans, formulas, rich text, shared and inline strings, hyperlinks', async () => {
    const file = await workbook((wb) => {
      wb.addWorksheet('Empty');
      const ws = wb.addWorksheet('Data');
      ws.addRow(['id', 'name', 'count', 'day', 'ok', 'sum', 'link', 'rich']);
      ws.addRow([
        '00123',
        '  padded  ',
        80,
        new Date(Date.UTC(2026, 0, 31)),
        true,
        { formula: 'C2*2', result: 160 },
        { text: 'cover', hyperlink: 'https://img.example.com/1.jpg' },
        { richText: [{ text: 'bold ', font: { bold: true } }, { text: 'plain' }] },
      ]);
      ws.addRow([]);
      ws.addRow(['A3', null, 1.5]);
      ws.getCell('D2').numFmt = 'yyyy-mm-dd';
    });
    expect(await readAll('a.xlsx', file)).toEqual({
      headers: ['id', 'name', 'count', 'day', 'ok', 'sum', 'link', 'rich'],
      rows: [
        {
          row: 2,
          values: { id: '00123', name: 'padded', count: '80', day: '2026-01-31', ok: 'true', sum: '160', link: 'cover', rich: 'bold plain' },
          links: { link: 'https://img.example.com/1.jpg' },
        },
        { row: 4, values: { id: 'A3', name: '', count: '1.5', day: '', ok: '', sum: '', link: '', rich: '' } },
      ],
    });
  });

  it('refuses too many rows, a column beyond the cap and an over-long cell, naming the cell', async () => {
    const file = await workbook((wb) => {
      const ws = wb.addWorksheet('S');
      ws.addRow(['a', 'b']);
      for (let i = 0; i < 5; i++) ws.addRow([i, 'x'.repeat(i)]);
    });
    expect(await refusal('r.xlsx', file, { limits: { maxRows: 4 } })).toMatchObject({ key: 'IMPORT_TOO_MANY_ROWS', params: { max: 4 } });
    expect(await refusal('c.xlsx', file, { limits: { maxColumns: 1 } })).toMatchObject({ key: 'IMPORT_TOO_MANY_COLUMNS', params: { max: 1, cell: 'B1' } });
    expect(await refusal('l.xlsx', file, { limits: { maxCellChars: 3 } })).toMatchObject({ key: 'IMPORT_CELL_TOO_LONG', params: { max: 3, cell: 'B6' } });
    expect(await refusal('n.xlsx', 'not a zip')).toMatchObject({ key: 'IMPORT_UNREADABLE' });
  });

  it('refuses a zip bomb (300 KB that inflates to 400 MB) at once when it admits its size, and within the cap when it lies, with bounded memory', async () => {
    const head = inlineRow(['id', 'name'], 1);
    const honest = xlsxBomb({ head, inflatedBytes: 400 * 1024 * 1024 });
    expect(honest.file.length).toBeLessThan(1024 * 1024);
    const liar = xlsxBomb({ head, inflatedBytes: 400 * 1024 * 1024, declaredSize: 5 * 1024 * 1024 });
    // The liar says 5 MB (under the cap) and holds 400: inflating stops where its word ends.
    const limits = { maxUnpackedBytes: 8 * 1024 * 1024 };
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    expect(await refusal('honest.xlsx', honest.file, { limits })).toMatchObject({ key: 'IMPORT_TOO_LARGE', params: { max: '8 MB' } });
    expect(performance.now() - started).toBeLessThan(2000);
    const lie = await refusal('liar.xlsx', liar.file, { limits });
    expect(lie.key).toBe('IMPORT_UNREADABLE');
    expect(String(lie.params.reason)).toMatch(/larger than the zip declares/);
    expect(performance.now() - started).toBeLessThan(5000);
    // Loose: inflating all of it would take 400 MB and more.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it('streams rows as they are read: a bomb of a gigabyte of rows stops at the row cap, long before its end', async () => {
    // Allowed to unpack it all, reading it would take far longer than the bound (tens of seconds).
    const { file } = xlsxBomb({ head: inlineRow(['id', 'name'], 1), filler: inlineRow(['1', 'x']), inflatedBytes: 1024 * 1024 * 1024 });
    const started = performance.now();
    expect(await refusal('rows.xlsx', file, { limits: { maxRows: 1000, maxUnpackedBytes: 2 * 1024 * 1024 * 1024 } })).toMatchObject({ key: 'IMPORT_TOO_MANY_ROWS', params: { max: 1000 } });
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
