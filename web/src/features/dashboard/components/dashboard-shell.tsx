import { Download, Menu, Plus, Settings, ShieldCheck } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { AccountMenu } from '@/components/ui/account-menu'
import { Button, buttonClasses } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'
import { Tabs } from '@/components/ui/tabs'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { signOut, useAuth } from '@/lib/auth-store'
import { useExporter } from '@/lib/export-registry'
import { isOperator } from '@/lib/operator'
import { useProfileIdentity } from '@/lib/profile-identity'
import { dashboardGreeting, markDashboardVisit } from '../greeting'
import { useDashboardSummary, useTabCounts, useTodaysOverview } from '../hooks/use-dashboard-data'
import { usePaymentSourceEvent } from '../hooks/use-payment-source-event'
import { CountBadge } from './count-badge'
import { DASHBOARD_TABS, type DashboardTab, TAB_META } from './dashboard-tabs'
import { MobileMenu } from './mobile-menu'
import { SidebarContent, type SidebarProps } from './sidebar'
import { StatCards } from './stat-cards'

interface DashboardShellProps {
  tab: DashboardTab
  onTabChange: (tab: DashboardTab) => void
  onNewCampaign: () => void
  /** The panel of the selected tab. */
  children: ReactNode
  /** Right of the header actions (e.g. the notifications bell). */
  headerExtra?: ReactNode
  /** Left in the header, after the title (the workspace switcher). */
  headerLeading?: ReactNode
  /** The tabs the person's role opens (all when not given). */
  tabs?: readonly DashboardTab[]
  /** False hides "New Campaign" (roles that only read or only answer the inbox). */
  canCreate?: boolean
  /** What the person's role shows under the sidebar's Management. */
  management?: SidebarProps['management']
  /** False hides the stat cards (a role that sees only the inbox). */
  showFigures?: boolean
  /** Badges of tabs the dashboard does not count itself (the Inbox's unread conversations). */
  badges?: Partial<Record<DashboardTab, (active: boolean) => ReactNode>>
  /** Above the stat cards: notices about the platforms (a site change pausing work). */
  notices?: ReactNode
}

/** product.md §2 dashboard layout: sidebar (slide-in menu on small screens), header, stat cards, tabs. */
export function DashboardShell({
  tab,
  onTabChange,
  onNewCampaign,
  children,
  headerExtra,
  headerLeading,
  tabs = DASHBOARD_TABS,
  canCreate = true,
  management,
  showFigures = true,
  badges,
  notices,
}: DashboardShellProps) {
  usePaymentSourceEvent()
  const user = useAuth((s) => s.user)
  const navigate = useNavigate()
  const toast = useToast()
  const exporter = useExporter()
  const [menuOpen, setMenuOpen] = useState(false)
  const [exporting, setExporting] = useState(false)
  const counts = useTabCounts()
  const live = (counts.data?.running ?? 0) > 0
  const summary = useDashboardSummary(live)
  const today = useTodaysOverview(live)
  const [returning] = useState(() =>
    markDashboardVisit(user?.id, typeof window === 'undefined' ? null : window.localStorage),
  )
  const greeting = dashboardGreeting(user, returning)
  const identity = useProfileIdentity(user)

  const sidebar = {
    tab,
    onTabChange,
    counts: counts.data,
    today: today.data,
    todayLoading: today.isPending,
    badges,
    tabs,
    management,
  }

  const tabBadge = (id: DashboardTab) => {
    const countKey = TAB_META[id].countKey
    if (!countKey) return badges?.[id]?.(id === tab)
    return <CountBadge value={counts.data?.[countKey]} active={id === tab} />
  }

  const runExport = async () => {
    if (!exporter) return
    setExporting(true)
    try {
      await exporter()
    } catch (error) {
      toast.error(`Failed to export. Please try again.`, undefined)
      console.error('Export failed', error)
    } finally {
      setExporting(false)
    }
  }

  return (
    <div className="min-h-screen bg-slate-50">
      <aside className="fixed inset-y-0 left-0 hidden w-64 border-r border-slate-200 bg-white lg:block">
        <SidebarContent {...sidebar} />
      </aside>
      <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} {...sidebar} />
      <div className="lg:pl-64">
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
          <div className="flex h-16 items-center gap-3 px-4 sm:px-6 lg:px-8">
            <button
              type="button"
              className="-ml-1 rounded-lg p-2 text-slate-600 hover:bg-slate-100 lg:hidden"
              aria-label="Open menu"
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen(true)}
            >
              <Menu className="size-5" aria-hidden="true" />
            </button>
            <Logo href={paths.dashboard} className="max-sm:hidden lg:hidden" />
            <div className="hidden min-w-0 lg:block">
              <h1 className="truncate text-lg font-semibold text-slate-900">Dashboard</h1>
              <p className="truncate text-xs text-slate-500">{greeting}</p>
            </div>
            {headerLeading}
            <div className="ml-auto flex items-center gap-2">
              {canCreate && (
                <Button
                  onClick={onNewCampaign}
                  icon={<Plus className="size-4" aria-hidden="true" />}
                  className="max-sm:px-3"
                >
                  <span className="max-sm:sr-only">New Campaign</span>
                </Button>
              )}
              {isOperator(user) && (
                <Link to={paths.admin} className={buttonClasses('secondary', 'md', 'max-sm:px-3')}>
                  <ShieldCheck className="size-4" aria-hidden="true" />
                  <span className="max-sm:sr-only">Admin</span>
                </Link>
              )}
              {headerExtra}
              <Link
                to={paths.settings}
                aria-label="Settings"
                className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800 max-sm:hidden"
              >
                <Settings className="size-5" aria-hidden="true" />
              </Link>
              <AccountMenu
                name={identity.name}
                email={user?.email}
                avatarUrl={identity.avatarUrl}
                profileSettingsHref={paths.settings}
                accountSettingsHref={paths.billing}
                onSignOut={async () => {
                  await signOut()
                  navigate(paths.login, { replace: true })
                }}
              />
            </div>
          </div>
        </header>
        <main className="min-w-0 space-y-6 px-4 py-6 sm:px-6 lg:px-8">
          <div className="flex flex-wrap items-end justify-between gap-3 lg:hidden">
            <div>
              <h1 className="text-xl font-semibold text-slate-900">Dashboard</h1>
              <p className="text-sm text-slate-500">{greeting}</p>
            </div>
          </div>
          {notices}
          {!showFigures ? null : summary.isError ? (
            <p
              role="alert"
              className="rounded-xl bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200"
            >
              {summary.error.message}
            </p>
          ) : (
            <StatCards summary={summary.data} loading={summary.isPending} />
          )}
          <section aria-label="Dashboard sections" className="space-y-5">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
              <Tabs
                label="Dashboard sections"
                value={tab}
                onChange={onTabChange}
                className="min-w-0 flex-1"
                items={tabs.map((id) => ({
                  id,
                  label: TAB_META[id].label,
                  badge: tabBadge(id),
                }))}
              />
              <Button
                variant="secondary"
                size="sm"
                className="self-end sm:mb-1.5"
                onClick={runExport}
                disabled={!exporter}
                loading={exporting}
                icon={<Download className="size-4" aria-hidden="true" />}
              >
                Export
              </Button>
            </div>
            <div role="tabpanel" aria-label={TAB_META[tab].label}>
              {children}
            </div>
          </section>
        </main>
      </div>
    </div>
  )
}
