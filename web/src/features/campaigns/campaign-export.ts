import { type CsvColumn, csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import type { Campaign } from './api/types'

const COLUMNS: CsvColumn<Campaign>[] = [
  { header: 'Name', value: (c) => c.name },
  { header: 'Status', value: (c) => c.status },
  { header: 'Industry', value: (c) => c.industry },
  { header: 'Stage', value: (c) => c.stage },
  { header: 'Account', value: (c) => c.social_account?.username },
  { header: 'Platform', value: (c) => c.platform?.display_name },
  { header: 'Total Leads', value: (c) => c.figures.target },
  { header: 'Eligible', value: (c) => c.figures.eligible },
  { header: 'Not Deliverable', value: (c) => c.figures.not_deliverable },
  { header: 'Messages Sent', value: (c) => c.figures.delivered },
  { header: 'Delivery Rate %', value: (c) => c.figures.delivery_rate },
  { header: 'Replies', value: (c) => c.figures.replied },
  { header: 'Contacted', value: (c) => c.figures.contacted },
  { header: 'Progress % contacted', value: (c) => c.figures.progress },
  { header: 'Daily Limit', value: (c) => c.daily_message_limit },
  { header: 'Created', value: (c) => c.created_at },
  { header: 'Updated', value: (c) => c.updated_at },
]

export const campaignsCsv = (rows: readonly Campaign[]) => toCsv(rows, COLUMNS)

export function exportCampaigns(rows: readonly Campaign[]): void {
  downloadCsv(csvFilename('campaigns'), campaignsCsv(rows))
}
