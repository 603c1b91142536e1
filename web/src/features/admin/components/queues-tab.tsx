// Queues: totals (jobs, active, failed, jobs per hour), every pg-boss queue with its jobs by state
// and completions per minute (every 5 s), Pause / Resume (the runner stops fetching a paused queue
// within one poll) and Details.

import type { AdminQueue } from '@reachflow/domain'
import { AlertOctagon, Layers, ListChecks, Pause, Play, Timer } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { getQueueStats } from '../api/get-queue-stats'
import { getQueues } from '../api/get-queues'
import { setQueuePaused } from '../api/set-queue-paused'
import { formatNumber } from '../format'
import { useTableTab } from '../hooks/use-table-tab'
import type { Column } from './data-table'
import { Pill } from './pill'
import { QueueDrawer } from './queue-drawer'
import { POLL_MS, type TabProps } from './tab-props'
import { TableTab } from './table-tab'

export function QueuesTab(tab: TabProps) {
  const { rows, stats, loading, act, isBusy } = useTableTab(getQueues, getQueueStats, POLL_MS.queues, tab)
  const [details, setDetails] = useState<string | null>(null)

  const toggle = (queue: AdminQueue) => {
    const pause = queue.status !== 'paused'
    return act(
      `toggle:${queue.name}`,
      () => setQueuePaused(queue.name, pause),
      `Queue ${queue.name} ${pause ? 'paused' : 'resumed'}`,
    )
  }

  const columns: Column<AdminQueue>[] = [
    {
      key: 'name',
      header: 'Queue',
      primary: true,
      cell: (q) => <span className="font-mono text-sm font-medium text-slate-900">{q.name}</span>,
    },
    { key: 'status', header: 'Status', cell: (q) => <Pill status={q.status} /> },
    { key: 'pending', header: 'Pending', numeric: true, cell: (q) => formatNumber(q.pending) },
    { key: 'active', header: 'Active', numeric: true, cell: (q) => formatNumber(q.active) },
    { key: 'completed', header: 'Completed', numeric: true, cell: (q) => formatNumber(q.completed) },
    {
      key: 'failed',
      header: 'Failed',
      numeric: true,
      cell: (q) => (
        <span className={q.failed > 0 ? 'font-semibold text-red-600' : undefined}>
          {formatNumber(q.failed)}
        </span>
      ),
    },
    { key: 'retrying', header: 'Retrying', numeric: true, cell: (q) => formatNumber(q.retrying) },
    { key: 'rate', header: 'Rate / min', numeric: true, cell: (q) => q.rate.toFixed(2) },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (q) => (
        <div className="inline-flex gap-2">
          <Button
            size="sm"
            variant={q.status === 'paused' ? 'primary' : 'secondary'}
            icon={q.status === 'paused' ? <Play className="size-3.5" /> : <Pause className="size-3.5" />}
            loading={isBusy(`toggle:${q.name}`)}
            onClick={() => void toggle(q)}
            aria-label={`${q.status === 'paused' ? 'Resume' : 'Pause'} ${q.name}`}
          >
            {q.status === 'paused' ? 'Resume' : 'Pause'}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDetails(q.name)}
            aria-label={`Details of ${q.name}`}
          >
            Details
          </Button>
        </div>
      ),
    },
  ]

  return (
    <TableTab
      figures={[
        {
          testId: 'stat-total-jobs',
          label: 'Total Jobs',
          value: formatNumber(stats?.totalJobs ?? 0),
          icon: Layers,
        },
        {
          testId: 'stat-active-jobs',
          label: 'Active Jobs',
          value: formatNumber(stats?.activeJobs ?? 0),
          icon: ListChecks,
          accent: 'green',
        },
        {
          testId: 'stat-failed-jobs',
          label: 'Failed Jobs',
          value: formatNumber(stats?.failedJobs ?? 0),
          icon: AlertOctagon,
          accent: 'red',
        },
        {
          testId: 'stat-jobs-per-hour',
          label: 'Jobs per Hour',
          value: formatNumber(stats?.jobsPerHour ?? 0),
          icon: Timer,
          accent: 'slate',
        },
      ]}
      testId="queues-table"
      label="Job queues"
      mobileColumns={3}
      columns={columns}
      rows={rows}
      rowKey={(q) => q.name}
      loading={loading}
      empty="No job queues"
    >
      <QueueDrawer name={details} onClose={() => setDetails(null)} autoRefresh={tab.autoRefresh} />
    </TableTab>
  )
}
