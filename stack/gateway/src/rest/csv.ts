// text/csv: PostgREST renders each row as its Postgres text form without the parentheses, which is
// CSV for plain values (fields with commas, quotes or spaces quoted, quotes doubled, null empty);
// the header line has the column keys.

export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}
