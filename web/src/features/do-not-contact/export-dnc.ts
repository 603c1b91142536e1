import { csvFilename, downloadCsv } from '@/lib/csv'
import { getDncPage } from './api/get-dnc'
import { csvLine, EXPORT_HEADER } from './dnc-csv'

/** The whole list, every page, as a formula-safe CSV download; returns how many people it holds. */
export async function exportDnc(): Promise<number> {
  const lines = [csvLine(EXPORT_HEADER)]
  const size = 5000
  let count = 0
  for (let page = 0; ; page++) {
    const { rows, total } = await getDncPage('', '', page, size)
    for (const row of rows)
      lines.push(csvLine([row.target_username, row.platform, row.reason, row.created_at, row.skipped_leads]))
    count += rows.length
    if (rows.length < size || count >= total) break
  }
  downloadCsv(csvFilename('do-not-contact'), `${lines.join('\r\n')}\r\n`)
  return count
}
