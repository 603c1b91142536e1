// The original brief mapped every scraping status but running and completed to Paused; we do not
// (product.md §4): a campaign that has never run is "Not started" (and counted so), and a
// running one whose last run failed says so instead of promising the next run (docs/decisions.md).
export interface ScrapingStatusInput {
  status: string
  error_message?: string | null
}

export interface ScrapingDisplay {
  /** The badge colour and icon (StatusBadge status). */
  badge: 'running' | 'completed' | 'paused' | 'pending' | 'error'
  label: string
}

export function scrapingDisplay(campaign: ScrapingStatusInput): ScrapingDisplay {
  switch (campaign.status) {
    case 'running':
      return campaign.error_message
        ? { badge: 'error', label: 'Failing' }
        : { badge: 'running', label: 'Running' }
    case 'completed':
      return { badge: 'completed', label: 'Completed' }
    case 'pending':
      return { badge: 'pending', label: 'Not started' }
    default:
      return { badge: 'paused', label: 'Paused' }
  }
}

export const SCRAPING_STATUS_FILTERS = ['running', 'pending', 'paused', 'completed'] as const
export type ScrapingStatusFilter = (typeof SCRAPING_STATUS_FILTERS)[number]

export const SCRAPING_FILTER_LABELS: Record<ScrapingStatusFilter, string> = {
  running: 'Running',
  pending: 'Not started',
  paused: 'Paused',
  completed: 'Completed',
}

/** Which status button a campaign counts under. */
export function scrapingFilterOf(status: string): ScrapingStatusFilter {
  if (status === 'running' || status === 'completed' || status === 'pending') return status
  return 'paused'
}
