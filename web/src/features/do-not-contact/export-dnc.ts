import { csvFilename, downloadCsv } from '@/lib/csv'
import { getDncPage } from './api/get-dnc'
import type { DncEntry } from './api/types'
import { dncExportCsv } from './dnc-csv'

/** The whole list, every page, as a formula-safe CSV download; returns how many people it holds. */
export async function exportDnc(): Promise<number> {
  const entries: DncEntry[] = []
  const size = 5000
  for (let page = 0; ; page++) {
    const { rows, total } = await getDncPage('', '', page, size)
    entries.push(...rows)
    if (rows.length < size || entries.length >= total) break
  }
  downloadCsv(csvFilename('do-not-contact'), dncExportCsv(entries))
  return entries.length
}
