// Query key roots shared by the dashboard's features. Features never import each other, so a write
// in one (an account added) invalidates the others' reads (tab counts, stat cards) by these roots.
export const queryRoots = {
  dashboard: 'dashboard',
  campaigns: 'campaigns',
  leads: 'leads',
  accounts: 'accounts',
  scraping: 'scraping',
  inbox: 'inbox',
} as const

export type QueryRoot = (typeof queryRoots)[keyof typeof queryRoots]

/** Live figures refresh this often while something runs and the browser tab is visible. */
export const LIVE_POLL_MS = 12_000
