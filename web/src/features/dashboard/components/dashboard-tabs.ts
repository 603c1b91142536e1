import { AtSign, Inbox, type LucideIcon, Megaphone, Radar, Users, Zap } from 'lucide-react'

/** product.md §2: the four tabs, in order, plus the Inbox and the Instagram automations; 'campaigns' is the default. */
export const DASHBOARD_TABS = [
  'campaigns',
  'inbox',
  'automations',
  'leads',
  'social-accounts',
  'lead-scraping',
] as const
export type DashboardTab = (typeof DASHBOARD_TABS)[number]
export const DEFAULT_TAB: DashboardTab = 'campaigns'

export const TAB_META: Record<
  DashboardTab,
  /** countKey: the badge from the dashboard's counts; without one the route supplies the badge. */
  { label: string; icon: LucideIcon; countKey?: 'campaigns' | 'leads' | 'accounts' | 'scraping' }
> = {
  campaigns: { label: 'Campaigns', icon: Megaphone, countKey: 'campaigns' },
  inbox: { label: 'Inbox', icon: Inbox },
  automations: { label: 'Automations', icon: Zap },
  leads: { label: 'Leads', icon: Users, countKey: 'leads' },
  'social-accounts': { label: 'Social Accounts', icon: AtSign, countKey: 'accounts' },
  'lead-scraping': { label: 'Lead Scraping', icon: Radar, countKey: 'scraping' },
}

export function isDashboardTab(value: string | null): value is DashboardTab {
  return DASHBOARD_TABS.includes(value as DashboardTab)
}
