import { needsDefusing } from '@loyalty/contracts';
import { saveFile } from '@/lib/download';

/** One column of an exported CSV: its header and the cell's plain value (ISO dates, raw numbers). */
export interface CsvColumn<TData> {
  header: string;
  value: (row: TData) => string | number | boolean | null | undefined;
}

export interface CsvExport<TData> {
  /** The screen's name, e.g. 'cards': the file is `cards-2026-11-23.csv`. */
  name: string;
  columns: CsvColumn<TData>[];
}

/** A cell as text a spreadsheet shows as is: formulas defused with a leading quote, then RFC 4180 quoting. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A number (-50) is a number; text starting like a formula is shown as text, also when it looks like a
  // number ('-0042', a block reason or an ID, would otherwise become -42): the server's exports' rule.
  if (typeof value === 'string' && needsDefusing(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<TData>(columns: CsvColumn<TData>[], rows: TData[]): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `cards-2026-11-23.csv`, the local date: the day the person exporting sees. */
export function csvFileName(name: string, now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${name}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

/** Starts the download in the browser; the byte order mark lets spreadsheet apps read UTF-8. */
export function downloadCsv(fileName: string, csv: string | Blob): void {
  saveFile(fileName, new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
}
