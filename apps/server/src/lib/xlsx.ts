import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export interface XlsxColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | null;
}

/** Streams rows as an .xlsx download (API.md "Lists": export answers a file, not the envelope). */
export function sendXlsx<T>(reply: FastifyReply, filename: string, sheet: string, columns: XlsxColumn<T>[], rows: Iterable<T>) {
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
