import { type CsvColumn, csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import { platformName } from '../platform'
import { getInboxThreads } from './get-inbox-threads'
import type { InboxFilters, InboxThread } from './types'

const BATCH = 1000
/** Bounded like the leads export, so one click cannot pull a whole account's history. */
const EXPORT_LIMIT = 50_000

export const INBOX_CSV_COLUMNS: CsvColumn<InboxThread>[] = [
  // Usernames without the @: a cell starting with @ is guarded as a formula (prefixed with ').
  { header: 'Person', value: (t) => t.peer_username },
  { header: 'Account', value: (t) => t.account?.username },
  { header: 'Platform', value: (t) => (t.account ? platformName(t.account.platform) : '') },
  { header: 'Campaign', value: (t) => t.campaign_name },
  { header: 'Status', value: (t) => (t.status === 'open' ? 'Open' : 'Handled') },
  { header: 'Unread', value: (t) => t.unread_count },
  { header: 'Last Message At', value: (t) => t.last_message_at },
  {
    header: 'Last Message From',
    value: (t) =>
      t.last_message_direction === 'outgoing' ? 'You' : t.last_message_direction === 'incoming' ? 'Them' : '',
  },
  { header: 'Last Message', value: (t) => t.last_message_preview },
]

/** Every conversation matching the inbox's filters, fetched page by page, as CSV; returns how many. */
export async function exportInbox(filters: InboxFilters, me: string | undefined): Promise<number> {
  const rows: InboxThread[] = []
  for (let from = 0; from < EXPORT_LIMIT; from += BATCH) {
    const page = await getInboxThreads(filters, me, { from, to: from + BATCH - 1 })
    rows.push(...page)
    if (page.length < BATCH) break
  }
  downloadCsv(csvFilename('inbox'), toCsv(rows, INBOX_CSV_COLUMNS))
  return rows.length
}
