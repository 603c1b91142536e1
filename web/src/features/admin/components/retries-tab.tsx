// Retries: failed jobs, retrying, Max Retries Reached and Success Rate, then every failed job with
// its attempts and error (every 10 s). Retry is disabled once attempts reach maxAttempts (product.md §5);
// Delete asks first.

import type { FailedJob } from '@reachflow/domain'
import { AlertOctagon, CheckCircle2, RefreshCw, RotateCcw, ShieldAlert, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { relativeTime } from '@/lib/relative-time'
import { deleteJob } from '../api/delete-job'
import { getRetries } from '../api/get-retries'
import { getRetryStats } from '../api/get-retry-stats'
import { retryJob } from '../api/retry-job'
import { formatDateTime, formatNumber, formatPercent, shortId } from '../format'
import { useTableTab } from '../hooks/use-table-tab'
import { ConfirmDialog } from './confirm-dialog'
import type { Column } from './data-table'
import { POLL_MS, type TabProps } from './tab-props'
import { TableTab } from './table-tab'

export const canRetry = (job: Pick<FailedJob, 'attempts' | 'maxAttempts'>) => job.attempts < job.maxAttempts

export function RetriesTab(tab: TabProps) {
  const { rows, stats, loading, act, isBusy } = useTableTab(getRetries, getRetryStats, POLL_MS.retries, tab)
  const [deleting, setDeleting] = useState<FailedJob | null>(null)

  const retry = (job: FailedJob) =>
    act(`retry:${job.id}`, () => retryJob(job.id), `Job ${shortId(job.id)} is queued again`)
  const remove = async () => {
    if (!deleting) return
    await act(
      `delete:${deleting.id}`,
      () => deleteJob(deleting.id),
      `Job ${shortId(deleting.id)} deleted successfully`,
    )
    setDeleting(null)
  }

  const columns: Column<FailedJob>[] = [
    {
      key: 'id',
      header: 'Job',
      primary: true,
      cell: (j) => (
        <span className="font-mono text-sm font-medium text-slate-900" title={j.id} data-testid="job-id">
          {shortId(j.id)}
        </span>
      ),
    },
    { key: 'type', header: 'Job Type', className: 'whitespace-nowrap', cell: (j) => j.jobType },
    { key: 'queue', header: 'Queue', cell: (j) => <span className="font-mono text-xs">{j.queue}</span> },
    {
      key: 'failedAt',
      header: 'Failed At',
      className: 'whitespace-nowrap',
      cell: (j) => (
        <span title={formatDateTime(j.failedAt)}>{j.failedAt ? relativeTime(j.failedAt) : '—'}</span>
      ),
    },
    {
      key: 'attempts',
      header: 'Attempts',
      numeric: true,
      cell: (j) => (
        <span className={canRetry(j) ? undefined : 'font-semibold text-red-600'} data-testid="job-attempts">
          {j.attempts}/{j.maxAttempts}
        </span>
      ),
    },
    {
      key: 'error',
      header: 'Error',
      wide: true,
      className: 'max-w-xs',
      cell: (j) => (
        <span className="line-clamp-2 break-words text-red-700" title={j.error}>
          {j.error}
        </span>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (j) => (
        <div className="inline-flex gap-2">
          <Button
            size="sm"
            variant="secondary"
            icon={<RotateCcw className="size-3.5" />}
            loading={isBusy(`retry:${j.id}`)}
            disabled={!canRetry(j)}
            title={canRetry(j) ? undefined : 'This job has had its most attempts'}
            onClick={() => void retry(j)}
            aria-label={`Retry job ${shortId(j.id)}`}
          >
            Retry
          </Button>
          {/* red beats the ghost variant's slate only when marked important (cn does not merge) */}
          <Button
            size="sm"
            variant="ghost"
            className="text-red-600! hover:bg-red-50! disabled:text-red-300!"
            icon={<Trash2 className="size-3.5" />}
            onClick={() => setDeleting(j)}
            aria-label={`Delete job ${shortId(j.id)}`}
          >
            Delete
          </Button>
        </div>
      ),
    },
  ]

  return (
    <TableTab
      figures={[
        {
          testId: 'stat-failed',
          label: 'Failed Jobs',
          value: formatNumber(stats?.failedJobs ?? 0),
          icon: AlertOctagon,
          accent: 'red',
          detail: 'Waiting for Retry or Delete',
        },
        {
          testId: 'stat-retrying',
          label: 'Retrying',
          value: formatNumber(stats?.retryingJobs ?? 0),
          icon: RefreshCw,
          accent: 'amber',
          detail: 'Queued to run again',
        },
        {
          testId: 'stat-max-retries',
          label: 'Max Retries Reached',
          value: formatNumber(stats?.maxRetriesJobs ?? 0),
          icon: ShieldAlert,
          accent: 'slate',
          detail: 'No attempts left',
        },
        {
          testId: 'stat-success-rate',
          label: 'Success Rate',
          value: formatPercent(stats?.successRate ?? 100),
          icon: CheckCircle2,
          accent: 'green',
          meter: stats?.successRate ?? 100,
          meterHighIsGood: true,
          detail: 'Of jobs finished in 24 hours',
        },
      ]}
      testId="retries-table"
      label="Failed jobs"
      columns={columns}
      rows={rows}
      rowKey={(j) => j.id}
      loading={loading}
      empty="No failed jobs. Everything that ran recently succeeded or is still being retried."
    >
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete job ${deleting ? shortId(deleting.id) : ''}?`}
        confirmLabel="Delete job"
        busy={deleting ? isBusy(`delete:${deleting.id}`) : false}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        The failed {deleting?.jobType.toLowerCase()} job is removed from the {deleting?.queue} queue and will
        not run again.
      </ConfirmDialog>
    </TableTab>
  )
}
