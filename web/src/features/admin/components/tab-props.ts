/** What the admin page hands every tab: the Auto Refresh switch and the Refresh button's count. */
export interface TabProps {
  autoRefresh: boolean
  refreshKey: number
}

/** product.md §9 polling intervals. */
export const POLL_MS = {
  overview: 30_000,
  processes: 5_000,
  queues: 5_000,
  retries: 10_000,
  logs: 3_000,
  platformHealth: 10_000,
} as const
