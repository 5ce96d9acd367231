// CSV files people download (RFC 4180): the incidents table's export and an incident's timeline.

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => unknown;
}

/**
 * One field: quoted when it holds a comma, a quote, a line break or leading/trailing space; quotes
 * doubled. Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a leading
 * `'`: titles and timeline entries come from whoever wrote them.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: a header line, then one line per row, lines ended by CRLF. */
export function toCsv<T>(columns: CsvColumn<T>[], rows: T[]): string {
  const lines = [columns.map((c) => csvField(c.header)), ...rows.map((row) => columns.map((c) => csvField(c.value(row))))];
  return lines.map((fields) => `${fields.join(',')}\r\n`).join('');
}

/** Offers `text` as a file download. */
export function download(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
