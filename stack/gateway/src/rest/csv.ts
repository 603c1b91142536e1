// text/csv responses: a header line with the keys, then one line per row (RFC 4180 quoting;
// nested objects and arrays as their JSON text; null as an empty field).

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv(rows: Record<string, unknown>[]): string {
  const first = rows[0]
  if (!first) return ''
  const keys = Object.keys(first)
  const lines = [keys.map(cell).join(',')]
  for (const row of rows) lines.push(keys.map((key) => cell(row[key])).join(','))
  return lines.join('\n')
}
