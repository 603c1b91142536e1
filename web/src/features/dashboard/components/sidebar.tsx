import { CreditCard, LifeBuoy, MessagesSquare, Settings, Sparkles, UsersRound } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Logo } from '@/components/ui/logo'
import { links, mailto } from '@/config/links'
import { paths } from '@/config/paths'
import { cn } from '@/lib/cn'
import type { TabCounts } from '../api/get-tab-counts'
import type { TodaysOverview as Overview } from '../api/get-todays-overview'
import { CountBadge } from './count-badge'
import { DASHBOARD_TABS, type DashboardTab, TAB_META } from './dashboard-tabs'
import { TodaysOverview } from './todays-overview'

const linkClass =
  'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900'

function SectionTitle({ children }: { children: string }) {
  return <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-400 uppercase">{children}</p>
}

export interface SidebarProps {
  tab: DashboardTab
  onTabChange: (tab: DashboardTab) => void
  counts: TabCounts | undefined
  today: Overview | undefined
  todayLoading: boolean
  /** Badges of tabs the dashboard does not count itself (the Inbox's unread conversations). */
  badges?: Partial<Record<DashboardTab, (active: boolean) => ReactNode>>
  /** The tabs the person's role opens (all when not given). */
  tabs?: readonly DashboardTab[]
  /** What the person's role shows under Management (everything when not given). */
  management?: { members: boolean; billing: boolean; settings: boolean }
}

const ALL_MANAGEMENT = { members: false, billing: true, settings: true }

/** product.md §2 sidebar: Today's Overview, the tabs with counts, management, help and community links, upgrade. */
export function SidebarContent({
  tab,
  onTabChange,
  counts,
  today,
  todayLoading,
  badges,
  tabs = DASHBOARD_TABS,
  management = ALL_MANAGEMENT,
}: SidebarProps) {
  return (
    <div className="flex h-full flex-col gap-6 overflow-y-auto px-4 py-5">
      <Logo href={paths.dashboard} className="px-2" />
      <TodaysOverview data={today} loading={todayLoading} />
      <nav aria-label="Dashboard">
        <SectionTitle>Main</SectionTitle>
        <ul className="space-y-0.5">
          {tabs.map((id) => {
            const meta = TAB_META[id]
            const Icon = meta.icon
            const active = id === tab
            return (
              <li key={id}>
                <button
                  type="button"
                  onClick={() => onTabChange(id)}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    linkClass,
                    'w-full',
                    active && 'bg-brand-50 text-brand-700 hover:bg-brand-50 hover:text-brand-700',
                  )}
                >
                  <Icon className="size-4.5 shrink-0" aria-hidden="true" />
                  {meta.label}
                  {meta.countKey ? (
                    <CountBadge value={counts?.[meta.countKey]} active={active} />
                  ) : (
                    badges?.[id]?.(active)
                  )}
                </button>
              </li>
            )
          })}
        </ul>
      </nav>
      <nav aria-label="Management">
        <SectionTitle>Management</SectionTitle>
        {management.members && (
          <Link to={paths.members} className={linkClass}>
            <UsersRound className="size-4.5" aria-hidden="true" />
            Members
          </Link>
        )}
        {management.settings && (
          <Link to={paths.settings} className={linkClass}>
            <Settings className="size-4.5" aria-hidden="true" />
            Settings
          </Link>
        )}
        {management.billing && (
          <Link to={paths.billing} className={linkClass}>
            <CreditCard className="size-4.5" aria-hidden="true" />
            Billing
          </Link>
        )}
      </nav>
      <nav aria-label="Support">
        <SectionTitle>Support</SectionTitle>
        <a href={mailto(links.supportEmail, 'Reachflow help')} className={linkClass}>
          <LifeBuoy className="size-4.5" aria-hidden="true" />
          Help and Support
        </a>
        <a href={links.community} target="_blank" rel="noreferrer" className={linkClass}>
          <MessagesSquare className="size-4.5" aria-hidden="true" />
          Private Community
        </a>
      </nav>
      {management.billing && (
        <Link
          to={paths.changePlan}
          className="mt-auto block rounded-xl bg-brand-gradient p-4 text-white shadow-lift transition hover:opacity-95"
        >
          <span className="flex items-center gap-2 text-sm font-semibold">
            <Sparkles className="size-4" aria-hidden="true" />
            Upgrade plan
          </span>
          <span className="mt-1 block text-xs text-white/80">More accounts, more DMs per day.</span>
        </Link>
      )}
    </div>
  )
}
