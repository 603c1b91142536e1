// Details of one queue: its retry and expiry settings, who paused it, and its newest jobs.
import { useCallback } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { getQueueDetail } from '../api/get-queue-detail'
import { formatDateTime, formatUptime, shortId } from '../format'
import { usePolling } from '../hooks/use-polling'
import { Drawer, DrawerSection, Fact, FactGrid } from './drawer'
import { Pill } from './pill'
import { POLL_MS } from './tab-props'

function QueueDetailBody({ name, autoRefresh }: { name: string; autoRefresh: boolean }) {
  const load = useCallback(() => getQueueDetail(name), [name])
  const { data, error } = usePolling(load, { intervalMs: POLL_MS.queues, enabled: autoRefresh })
  if (error && !data) return <p className="text-sm text-red-600">{error.message}</p>
  if (!data)
    return (
      <div className="flex justify-center py-12 text-brand-600">
        <Spinner size={32} label="Loading queue" />
      </div>
    )
  return (
    <>
      <FactGrid>
        <Fact label="Status">{data.paused ? <Pill status="paused" /> : <Pill status="active" />}</Fact>
        <Fact label="Policy">{data.policy ?? 'standard'}</Fact>
        <Fact label="Automatic retries">{data.retryLimit}</Fact>
        <Fact label="Retry delay">
          {data.retryDelaySeconds > 0 ? formatUptime(data.retryDelaySeconds) : 'none'}
          {data.retryBackoff ? ', backing off' : ''}
        </Fact>
        <Fact label="Time limit">{data.expireSeconds ? formatUptime(data.expireSeconds) : '15m'}</Fact>
        <Fact label="Paused">
          {data.paused ? `${formatDateTime(data.pausedAt)} by ${data.pausedBy ?? 'an admin'}` : '—'}
        </Fact>
      </FactGrid>
      {data.counts && (
        <DrawerSection title="Jobs by state">
          <FactGrid>
            <Fact label="Pending">{data.counts.pending}</Fact>
            <Fact label="Active">{data.counts.active}</Fact>
            <Fact label="Completed">{data.counts.completed}</Fact>
            <Fact label="Failed">{data.counts.failed}</Fact>
            <Fact label="Retrying">{data.counts.retrying}</Fact>
            <Fact label="Rate / min">{data.counts.rate.toFixed(2)}</Fact>
          </FactGrid>
        </DrawerSection>
      )}
      <DrawerSection title="Newest jobs">
        {data.recentJobs.length === 0 ? (
          <p className="text-sm text-slate-500">No jobs in this queue.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {data.recentJobs.map((job) => (
              <li key={job.id} className="px-4 py-3 text-sm">
                <div className="flex items-center justify-between gap-3">
                  <span className="font-mono text-xs text-slate-600" title={job.id}>
                    {shortId(job.id)}
                  </span>
                  <Pill status={job.state} />
                </div>
                <p className="mt-1 text-xs text-slate-500">
                  Created {formatDateTime(job.created_on)}
                  {job.completed_on ? ` · finished ${formatDateTime(job.completed_on)}` : ''}
                  {job.retry_count > 0 ? ` · retried ${job.retry_count}×` : ''}
                </p>
                {job.singleton_key && (
                  <p className="mt-1 truncate font-mono text-xs text-slate-500">{job.singleton_key}</p>
                )}
                {job.error && <p className="mt-1 text-xs text-red-600">{job.error}</p>}
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>
    </>
  )
}

export function QueueDrawer({
  name,
  onClose,
  autoRefresh,
}: {
  name: string | null
  onClose: () => void
  autoRefresh: boolean
}) {
  return (
    <Drawer
      open={name !== null}
      onClose={onClose}
      title={<span className="font-mono">{name}</span>}
      description="Queue details"
    >
      {name && <QueueDetailBody name={name} autoRefresh={autoRefresh} />}
    </Drawer>
  )
}
