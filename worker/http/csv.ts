/**
 * CSV for spreadsheet programs (RFC 4180 quoting, CRLF rows) that opens correctly and safely:
 * - a UTF-8 byte order mark first, so Excel reads Arabic names as UTF-8 rather than a legacy code page;
 * - text cells that a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return that
 *   some programs skip before one) get a leading apostrophe, the OWASP "CSV injection" defence.
 * Numbers are written as they are: our own numbers are never formulas.
 */
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: CsvCell[][]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

/** The response of a CSV download. */
export function csvResponse(filename: string, body: string): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
