/** Number formatting and a plain-text table for the summary. */
const fmt = (digits: number) => (v: number | null | undefined) =>
  typeof v === 'number' && Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';

export const f0 = fmt(0);
export const f1 = fmt(1);
export const f2 = fmt(2);

export type Row = [figure: string, value: string, baseline: string, ratio: string];

export function printTable(head: Row, rows: Row[]): void {
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (r: Row) => r.map((cell, i) => (i === 0 || i === 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
