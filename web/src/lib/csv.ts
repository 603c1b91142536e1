// CSV export of what a table shows, through the one shared encoder (`@reachflow/domain` csv.ts: every field
// quoted, formula starts defused at the start and after any separator).
import { type CsvValue, csvDocument } from '@reachflow/domain'

export interface CsvColumn<T> {
  header: string
  value: (row: T) => CsvValue
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  return csvDocument([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.value(row)))])
}

/** Starts a download of `csv` as `filename` in the browser. */
export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** `reachflow-<what>-YYYY-MM-DD.csv` */
export function csvFilename(what: string, now: Date = new Date()): string {
  return `reachflow-${what}-${now.toISOString().slice(0, 10)}.csv`
}
