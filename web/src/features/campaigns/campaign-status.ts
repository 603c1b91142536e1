// product.md §4 "DM campaign status": the dashboard shows running as Active, queued as Draft, completed,
// paused, and everything else as Draft. 'active' is the data model's other name for sending
// (docs/database.md), so it is Active too; error and failed keep their own red badge so a problem is
// never dressed up as a draft (docs/decisions.md).

export type CampaignFilter = 'active' | 'draft' | 'completed' | 'paused'

export const CAMPAIGN_FILTERS: readonly CampaignFilter[] = ['active', 'draft', 'completed', 'paused']

/** Which status sub-filter a campaign belongs to. */
export function campaignFilterOf(status: string): CampaignFilter {
  switch (status) {
    case 'running':
    case 'active':
      return 'active'
    case 'completed':
      return 'completed'
    case 'paused':
      return 'paused'
    default:
      return 'draft'
  }
}

/** The status the badge shows. */
export function campaignBadgeStatus(status: string): string {
  if (status === 'error' || status === 'failed') return status
  const filter = campaignFilterOf(status)
  return filter === 'draft' ? 'Draft' : filter
}

/** While a campaign sends, its cards say 'Running' and its figures refresh. */
export const isSending = (status: string) => status === 'running' || status === 'active'
