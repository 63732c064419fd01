import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.ts';

export interface XlsxColumn<T> {
  /** The list column this belongs to (one list column may give several file columns). */
  key?: string;
  header: string;
  width?: number;
  value: (row: T) => string | number | null;
  /** Written only when the export's `columns` asks for it (not part of the default file). */
  onRequest?: boolean;
}

/**
 * The file columns for an export body's `columns` (the shown list columns, in their order; keys
 * validated by the contract): each key's file columns in the order given. Without `columns`,
 * the default set. Columns without a key belong to the default set only.
 */
export function pickColumns<T>(all: readonly XlsxColumn<T>[], keys: readonly string[] | undefined): XlsxColumn<T>[] {
  if (!keys) return all.filter((c) => !c.onRequest);
  return keys.flatMap((k) => all.filter((c) => c.key === k));
}

/** Most rows one export holds (memory and what a spreadsheet opens comfortably). */
export const EXPORT_MAX_ROWS = 100_000;

/** A slice of the matching rows, in the export's order. */
export interface ExportPage {
  limit: number;
  offset: number;
}

/**
 * Streams rows as an .xlsx download (API.md "Lists": export answers a file, not the envelope).
 * `fetchRows` answers a slice of the matching rows. When more rows match than an export holds,
 * the export is refused (code -2, EXPORT_TOO_MANY_ROWS: narrow the filters): a file cut at the cap
 * would look complete and not be. Whether a row lies past the cap is asked first (one row), so a
 * refusal costs no more than that.
 */
export async function sendXlsx<T>(reply: FastifyReply, filename: string, sheet: string, columns: XlsxColumn<T>[], fetchRows: (page: ExportPage) => Promise<readonly T[]>) {
  const tooMany = () => new AppError('EXPORT_TOO_MANY_ROWS', { max: EXPORT_MAX_ROWS });
  if ((await fetchRows({ limit: 1, offset: EXPORT_MAX_ROWS })).length) throw tooMany();
  // One more than the cap again: rows added in between must not cut the file silently either.
  const rows = await fetchRows({ limit: EXPORT_MAX_ROWS + 1, offset: 0 });
  if (rows.length > EXPORT_MAX_ROWS) throw tooMany();
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  const ws = workbook.addWorksheet(sheet);
  ws.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  void (async () => {
    try {
      for (const row of rows) ws.addRow(columns.map((c) => c.value(row))).commit();
      ws.commit();
      await workbook.commit();
    } catch (err) {
      stream.destroy(err as Error);
    }
  })();
  return reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .send(stream);
}
