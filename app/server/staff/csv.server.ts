/**
 * CSV for spreadsheets (RFC 4180, OWASP "CSV injection"): a field containing a comma, a double quote,
 * CR or LF is quoted with its quotes doubled; a field starting with = + - @ TAB or CR gets a leading
 * apostrophe first, so Excel, LibreOffice or Sheets never evaluate applicant-typed text as a formula.
 * Lines end in CRLF. Numbers we format ourselves (amounts, ids) never start with those characters.
 */

export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: CsvValue): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
