// The one CSV encoder for every export (web downloads; any function that ever writes CSV). RFC 4180
// with every field quoted, plus formula defusing for spreadsheets: a cell that starts with =, +, -,
// @, tab or CR runs as a formula in Excel, LibreOffice and Google Sheets. Quoting alone does not
// stop that where a spreadsheet splits on another character than the comma: `"Sam;=1+1"` opened
// with `;` as the separator is the cells `"Sam` and `=1+1"`. So a formula start is defused (a ' put
// before it, which spreadsheets show as text) at the start of the text and after every character a
// spreadsheet may split cells or rows on (, ; tab | CR LF), spaces and quotes in between included.
// Numbers and booleans are written as they are: they cannot hold a formula.

export type CsvValue = string | number | boolean | null | undefined

const FORMULA_START = /(^|[,;\t|\r\n])([ "]*)(?=[=+\-@\t\r])/g

/** One field, quoted, with its quotes doubled and every formula start defused. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '""'
  const text = typeof value === 'string' ? value.replace(FORMULA_START, "$1$2'") : String(value)
  return `"${text.replaceAll('"', '""')}"`
}

/** Rows (the header first) as a CSV document: CRLF line ends, one after the last row. */
export function csvDocument(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('')
}
