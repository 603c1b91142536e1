import { formatRate } from '@reachflow/domain'
import { Activity, AtSign, type LucideIcon, Megaphone, Send, TrendingDown, TrendingUp } from 'lucide-react'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/cn'
import { formatCount } from '@/lib/format'
import type { DashboardSummary } from '../api/get-dashboard-summary'
import { changeTone, formatChange } from '../stat-change'

interface StatCardProps {
  label: string
  value: string
  change: string
  hint: string
  icon: LucideIcon
}

/** product.md §2 stat card: label, value, change (+ green, 0 hidden, else red). */
export function StatCard({ label, value, change, hint, icon: Icon }: StatCardProps) {
  const tone = changeTone(change)
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-card">
      <div className="flex items-start justify-between gap-3">
        <p className="text-sm font-medium text-slate-500">{label}</p>
        <span className="flex size-9 items-center justify-center rounded-lg bg-brand-50 text-brand-600">
          <Icon className="size-5" aria-hidden="true" />
        </span>
      </div>
      <p
        className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums"
        data-testid={`stat-${label}`}
      >
        {value}
      </p>
      <p className="mt-1 flex min-h-5 flex-wrap items-center gap-x-1 text-xs">
        {tone !== 'hidden' && (
          <span
            data-tone={tone}
            className={cn(
              'inline-flex items-center gap-0.5 font-semibold',
              tone === 'up' ? 'text-emerald-600' : 'text-red-600',
            )}
          >
            {tone === 'up' ? (
              <TrendingUp className="size-3.5" aria-hidden="true" />
            ) : (
              <TrendingDown className="size-3.5" aria-hidden="true" />
            )}
            {change}
          </span>
        )}
        <span className="text-slate-400">{hint}</span>
      </p>
    </div>
  )
}

function StatSkeleton() {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-card">
      <Skeleton className="h-4 w-24" />
      <Skeleton className="mt-3 h-7 w-20" />
      <Skeleton className="mt-2 h-3 w-28" />
    </div>
  )
}

/** The four summary cards of product.md §2, from rpc/dashboard_summary. */
export function StatCards({ summary, loading }: { summary: DashboardSummary | undefined; loading: boolean }) {
  if (loading || !summary) {
    return (
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <StatSkeleton key={i} />
        ))}
      </div>
    )
  }
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      <StatCard
        label="Messages Sent"
        value={formatCount(summary.messages_sent)}
        change={formatChange(summary.messages_sent_change, '%')}
        hint="vs previous 7 days"
        icon={Send}
      />
      <StatCard
        label="Delivery Rate"
        value={formatRate(summary.delivery_rate, 1)}
        change={formatChange(summary.delivery_rate_change, '%')}
        hint="vs previous 7 days"
        icon={Activity}
      />
      <StatCard
        label="Active Accounts"
        value={formatCount(summary.active_accounts)}
        change={formatChange(summary.active_accounts_change)}
        hint="new this week"
        icon={AtSign}
      />
      <StatCard
        label="Active Campaigns"
        value={formatCount(summary.active_campaigns)}
        change={formatChange(summary.active_campaigns_change)}
        hint="started this week"
        icon={Megaphone}
      />
    </div>
  )
}
