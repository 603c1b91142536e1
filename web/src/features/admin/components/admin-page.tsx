// The operator's admin dashboard (product.md §2): title 'Admin Dashboard', the product's eight tabs plus
// Workspaces (owners, members, plans) and Platform health (site changes, the canary, platform packs), Auto Refresh (on by default) and
// Refresh. The open tab lives in the address (?tab=queues) so a reload keeps it.
import {
  Activity,
  Building2,
  FileText,
  HeartPulse,
  Layers,
  LayoutDashboard,
  type LucideIcon,
  Megaphone,
  RefreshCw,
  RotateCcw,
  Server,
  Users,
} from 'lucide-react'
import { type KeyboardEvent, type ReactNode, useId, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/cn'
import { AccountsTab } from './accounts-tab'
import { CampaignsTab } from './campaigns-tab'
import { LogsTab } from './logs-tab'
import { OverviewTab } from './overview-tab'
import { PlatformHealthTab } from './platform-health-tab'
import { ProcessesTab } from './processes-tab'
import { QueuesTab } from './queues-tab'
import { RetriesTab } from './retries-tab'
import type { TabProps } from './tab-props'
import { UsersTab } from './users-tab'
import { WorkspacesTab } from './workspaces-tab'

const TABS: { id: string; label: string; icon: LucideIcon; Panel: (props: TabProps) => ReactNode }[] = [
  { id: 'overview', label: 'Overview', icon: LayoutDashboard, Panel: OverviewTab },
  { id: 'processes', label: 'Server Processes', icon: Server, Panel: ProcessesTab },
  { id: 'logs', label: 'Logs', icon: FileText, Panel: LogsTab },
  { id: 'queues', label: 'Queues', icon: Layers, Panel: QueuesTab },
  { id: 'retries', label: 'Retries', icon: RotateCcw, Panel: RetriesTab },
  { id: 'users', label: 'Users', icon: Users, Panel: UsersTab },
  { id: 'campaigns', label: 'Campaigns', icon: Megaphone, Panel: CampaignsTab },
  { id: 'accounts', label: 'Accounts', icon: Activity, Panel: AccountsTab },
  { id: 'workspaces', label: 'Workspaces', icon: Building2, Panel: WorkspacesTab },
  { id: 'platform-health', label: 'Platform health', icon: HeartPulse, Panel: PlatformHealthTab },
]

export function AdminPage() {
  const [params, setParams] = useSearchParams()
  const active = TABS.find((t) => t.id === params.get('tab')) ?? TABS[0]
  const [autoRefresh, setAutoRefresh] = useState(true)
  const [refreshKey, setRefreshKey] = useState(0)
  const baseId = useId()
  const autoRefreshId = useId()
  if (!active) return null

  const select = (id: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        if (id === 'overview') next.delete('tab')
        else next.set('tab', id)
        return next
      },
      { replace: true },
    )

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onTabKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    const index = TABS.findIndex((t) => t.id === active.id)
    const next = TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]
    if (!next) return
    select(next.id)
    document.getElementById(`${baseId}-tab-${next.id}`)?.focus()
  }

  const { Panel } = active
  return (
    <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-xs font-semibold tracking-wider text-brand-600 uppercase">Operator</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            Admin Dashboard
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            Customers, campaigns, jobs and runners across the platform.
          </p>
        </div>
        <div className="flex items-center gap-3">
          <label
            htmlFor={autoRefreshId}
            className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg bg-white px-3 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset"
          >
            <input
              id={autoRefreshId}
              type="checkbox"
              checked={autoRefresh}
              onChange={(e) => setAutoRefresh(e.target.checked)}
              className="size-4 rounded border-slate-300 accent-brand-600"
            />
            Auto Refresh
            {autoRefresh && (
              <span className="size-1.5 animate-pulse rounded-full bg-emerald-500" aria-hidden="true" />
            )}
          </label>
          <Button
            variant="secondary"
            icon={<RefreshCw className="size-4" />}
            onClick={() => setRefreshKey((k) => k + 1)}
          >
            Refresh
          </Button>
        </div>
      </div>

      <div
        role="tablist"
        aria-label="Admin sections"
        onKeyDown={onTabKeyDown}
        className="-mx-4 mt-8 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 [scrollbar-width:none] sm:mx-0 sm:px-0"
      >
        {TABS.map((tab) => {
          const selected = tab.id === active.id
          const Icon = tab.icon
          return (
            <button
              key={tab.id}
              id={`${baseId}-tab-${tab.id}`}
              role="tab"
              type="button"
              aria-selected={selected}
              aria-controls={`${baseId}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(tab.id)}
              className={cn(
                '-mb-px inline-flex shrink-0 items-center gap-2 border-b-2 px-2.5 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors',
                selected
                  ? 'border-brand-600 text-brand-700'
                  : 'border-transparent text-slate-500 hover:text-slate-800',
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {tab.label}
            </button>
          )
        })}
      </div>

      <section
        id={`${baseId}-panel`}
        role="tabpanel"
        aria-labelledby={`${baseId}-tab-${active.id}`}
        className="mt-6"
      >
        <Panel key={active.id} autoRefresh={autoRefresh} refreshKey={refreshKey} />
      </section>
    </main>
  )
}
