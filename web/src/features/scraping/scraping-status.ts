// Spec §4 "Scraping campaign status": the list shows running as Running, completed as Completed and
// everything else as Paused. A pending campaign has never run, so it reads Pending (the wizard's own
// review says it is created pending and started from the list; docs/decisions.md).
export function scrapingBadgeStatus(status: string): string {
  if (status === 'running' || status === 'completed') return status
  return 'paused'
}

export const SCRAPING_STATUS_FILTERS = ['running', 'paused', 'completed'] as const
export type ScrapingStatusFilter = (typeof SCRAPING_STATUS_FILTERS)[number]

/** Which status button a campaign counts under (pending waits like a paused one). */
export function scrapingFilterOf(status: string): ScrapingStatusFilter {
  return status === 'running' ? 'running' : status === 'completed' ? 'completed' : 'paused'
}
