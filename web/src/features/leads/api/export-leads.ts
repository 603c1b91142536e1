import { type CsvColumn, csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import { type Lead, type LeadQuery, leadsQuery } from './get-leads-page'

const BATCH = 1000
/** An export is a deliberate act, but still bounded so one click cannot pull a whole account's history. */
export const EXPORT_LIMIT = 50_000

const COLUMNS: CsvColumn<Lead>[] = [
  { header: 'Username', value: (l) => l.username },
  { header: 'Name', value: (l) => l.display_name },
  { header: 'Title', value: (l) => l.title },
  { header: 'Company', value: (l) => l.company },
  { header: 'Email', value: (l) => l.email },
  { header: 'Status', value: (l) => l.status },
  { header: 'Campaign', value: (l) => l.campaign_name },
  { header: 'Sources', value: (l) => l.sources.join('; ') },
  { header: 'Platform', value: (l) => l.platform ?? '' },
  { header: 'Last Activity', value: (l) => l.last_activity },
]

/** Every lead matching the current filters, fetched page by page (1,000 at a time), as CSV. */
export async function exportLeads(q: Omit<LeadQuery, 'page' | 'pageSize'>): Promise<number> {
  const rows: Lead[] = []
  for (let from = 0; from < EXPORT_LIMIT; from += BATCH) {
    const { data, error } = await leadsQuery(q).range(from, from + BATCH - 1)
    if (error) throw new Error(error.message)
    rows.push(...data)
    if (data.length < BATCH) break
  }
  downloadCsv(csvFilename('leads'), toCsv(rows, COLUMNS))
  return rows.length
}
