// Overview: four cards (users, campaigns, accounts, system health) and the recent activity list,
// every 30 s, with the site-change alarm above them while a platform action is paused. A failed
// load shows 'Error Loading Dashboard' with the message and Retry (product.md §8).
import {
  Activity as ActivityIcon,
  AlertTriangle,
  Cpu,
  CreditCard,
  type LucideIcon,
  Megaphone,
  RotateCw,
  ServerCog,
  UserPlus,
  Users,
} from 'lucide-react'
import { useCallback } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { relativeTime } from '@/lib/relative-time'
import { getAiUsage } from '../api/get-ai-usage'
import { getPlatformAlerts } from '../api/get-platform-alerts'
import { getRecentActivity } from '../api/get-recent-activity'
import { getStats } from '../api/get-stats'
import { formatNumber, formatPercent, formatUptime, humanize } from '../format'
import { usePolling } from '../hooks/use-polling'
import { AiUsageCard } from './ai-usage-card'
import { Pill } from './pill'
import { PlatformAlert } from './platform-alert'
import { StatCard, StatGrid } from './stat-card'
import { POLL_MS, type TabProps } from './tab-props'

const ACTIVITY_ICONS: Record<string, LucideIcon> = {
  user: UserPlus,
  subscription: CreditCard,
  campaign: Megaphone,
  account: Users,
  job: AlertTriangle,
  system: ServerCog,
}

function Breakdown({ parts }: { parts: [number, string][] }) {
  return (
    <p className="flex flex-wrap gap-x-3 gap-y-1">
      {parts.map(([count, label]) => (
        <span key={label}>
          <span className="font-semibold text-slate-900 tabular-nums">{formatNumber(count)}</span> {label}
        </span>
      ))}
    </p>
  )
}

export function OverviewTab({ autoRefresh, refreshKey }: TabProps) {
  const load = useCallback(async () => {
    const [stats, activity, aiUsage, platformAlerts] = await Promise.all([
      getStats(),
      getRecentActivity(),
      // the AI card and the site-change alarm are extra: their failure must not take the overview down
      getAiUsage().catch(() => null),
      getPlatformAlerts().catch((error) => {
        console.error('Loading the platform alerts failed', error)
        return null
      }),
    ])
    return { stats, activity, aiUsage, platformAlerts }
  }, [])
  const { data, error, loading, refresh, refreshing } = usePolling(load, {
    intervalMs: POLL_MS.overview,
    enabled: autoRefresh,
    refreshKey,
  })

  if (loading && !data) {
    return (
      <div className="flex justify-center py-24 text-brand-600">
        <Spinner size={48} label="Loading dashboard" />
      </div>
    )
  }
  if (error && !data) {
    return (
      <Card className="mx-auto max-w-lg px-6 py-12 text-center" role="alert">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600">
          <AlertTriangle className="size-6" aria-hidden="true" />
        </span>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">Error Loading Dashboard</h2>
        <p className="mt-2 text-sm text-slate-600">{error.message}</p>
        <Button
          className="mt-6"
          onClick={() => void refresh()}
          loading={refreshing}
          icon={<RotateCw className="size-4" />}
        >
          Retry
        </Button>
      </Card>
    )
  }
  if (!data) return null
  const { stats, activity, aiUsage, platformAlerts } = data
  const online = stats.system.activeWorkers > 0
  return (
    <div className="space-y-6">
      {platformAlerts && <PlatformAlert alerts={platformAlerts} />}
      <StatGrid>
        <StatCard
          testId="stat-users"
          label="Total Users"
          value={formatNumber(stats.users.total)}
          icon={Users}
          detail={
            <Breakdown
              parts={[
                [stats.users.active, 'active'],
                [stats.users.trial, 'trial'],
                [stats.users.paid, 'paid'],
              ]}
            />
          }
        />
        <StatCard
          testId="stat-campaigns"
          label="Campaigns"
          value={formatNumber(stats.campaigns.total)}
          icon={Megaphone}
          accent="green"
          detail={
            <Breakdown
              parts={[
                [stats.campaigns.active, 'active'],
                [stats.campaigns.paused, 'paused'],
                [stats.campaigns.completed, 'done'],
              ]}
            />
          }
        />
        <StatCard
          testId="stat-accounts"
          label="Social Accounts"
          value={formatNumber(stats.accounts.total)}
          icon={ActivityIcon}
          accent="amber"
          detail={
            <Breakdown
              parts={[
                [stats.accounts.verified, 'verified'],
                [stats.accounts.warming, 'warming'],
                [stats.accounts.flagged, 'flagged'],
              ]}
            />
          }
        />
        <StatCard
          testId="stat-system"
          label="System Health"
          value={
            <span className="inline-flex items-center gap-2">
              <span
                className={
                  online ? 'size-2.5 rounded-full bg-emerald-500' : 'size-2.5 rounded-full bg-red-500'
                }
              />
              {online ? 'Online' : 'Offline'}
            </span>
          }
          icon={Cpu}
          accent={online ? 'green' : 'red'}
          detail={
            <p className="flex flex-wrap gap-x-3 gap-y-1">
              <span>
                Uptime{' '}
                <span className="font-semibold text-slate-900">{formatUptime(stats.system.uptime)}</span>
              </span>
              <span>
                <span className="font-semibold text-slate-900 tabular-nums">
                  {stats.system.activeWorkers}
                </span>{' '}
                {stats.system.activeWorkers === 1 ? 'worker' : 'workers'}
              </span>
              <span>
                <span className="font-semibold text-slate-900 tabular-nums">
                  {formatPercent(stats.system.errorRate)}
                </span>{' '}
                error rate
              </span>
            </p>
          }
        />
      </StatGrid>

      {aiUsage && <AiUsageCard usage={aiUsage} />}

      <Card>
        <CardHeader className="flex items-center justify-between">
          <CardTitle>Recent Activity</CardTitle>
          {refreshing && <Spinner size={16} label="Refreshing" className="text-slate-400" />}
        </CardHeader>
        {activity.length === 0 ? (
          <CardBody className="py-10 text-center text-sm text-slate-500">No recent activity</CardBody>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Recent activity">
            {activity.map((item) => {
              const Icon = ACTIVITY_ICONS[item.type] ?? ActivityIcon
              return (
                <li key={item.id} className="flex items-start gap-4 px-6 py-4">
                  <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600">
                    <Icon className="size-4" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium break-words text-slate-900">{item.description}</p>
                    <p className="mt-1 text-xs text-slate-500">
                      <time dateTime={item.timestamp} title={new Date(item.timestamp).toLocaleString()}>
                        {relativeTime(item.timestamp)}
                      </time>
                      <span aria-hidden="true"> · </span>
                      {humanize(item.type)}
                    </p>
                  </div>
                  <Pill status={item.status} className="shrink-0" />
                </li>
              )
            })}
          </ul>
        )}
      </Card>
    </div>
  )
}
