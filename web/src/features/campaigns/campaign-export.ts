import { type CsvColumn, csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import { percentOf } from '@/lib/format'
import type { Campaign } from './api/types'

const COLUMNS: CsvColumn<Campaign>[] = [
  { header: 'Name', value: (c) => c.name },
  { header: 'Status', value: (c) => c.status },
  { header: 'Industry', value: (c) => c.industry },
  { header: 'Stage', value: (c) => c.stage },
  { header: 'Account', value: (c) => c.social_account?.username },
  { header: 'Platform', value: (c) => c.platform?.display_name },
  { header: 'Total Leads', value: (c) => c.leads },
  { header: 'Messages Sent', value: (c) => c.messages_sent },
  {
    header: 'Delivery Rate %',
    value: (c) => percentOf(c.messages_sent, c.messages_sent + c.messages_failed, 1),
  },
  { header: 'Replies', value: (c) => c.response_count },
  { header: 'Target', value: (c) => c.target_count },
  { header: 'Progress % contacted', value: (c) => percentOf(c.contacted, c.target_count, 1) },
  { header: 'Daily Limit', value: (c) => c.daily_message_limit },
  { header: 'Created', value: (c) => c.created_at },
  { header: 'Updated', value: (c) => c.updated_at },
]

export const campaignsCsv = (rows: readonly Campaign[]) => toCsv(rows, COLUMNS)

export function exportCampaigns(rows: readonly Campaign[]): void {
  downloadCsv(csvFilename('campaigns'), campaignsCsv(rows))
}
