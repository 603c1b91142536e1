// Logs: level and service filters, the newest 100 lines every 3 s while Auto Refresh is on, Clear
// Logs, and each line's metadata on demand. 'No logs found' when nothing matches.

import type { AdminLog } from '@reachflow/domain'
import { Trash2 } from 'lucide-react'
import { useCallback, useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/cn'
import { clearLogs } from '../api/clear-logs'
import { getLogs } from '../api/get-logs'
import { formatDateTime, formatLogStamp } from '../format'
import { useAdminAction } from '../hooks/use-admin-action'
import { usePolling } from '../hooks/use-polling'
import { ConfirmDialog } from './confirm-dialog'
import { POLL_MS, type TabProps } from './tab-props'

export const LEVELS = ['all', 'error', 'warn', 'info', 'debug'] as const
export const SERVICES = ['all', 'instagram', 'twitter', 'scheduler', 'warmup', 'api'] as const

const levelClasses: Record<string, string> = {
  error: 'bg-red-50 text-red-700 ring-red-600/20',
  warn: 'bg-amber-50 text-amber-800 ring-amber-600/25',
  info: 'bg-brand-50 text-brand-700 ring-brand-600/20',
  debug: 'bg-slate-100 text-slate-600 ring-slate-500/20',
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: string
  options: readonly string[]
  onChange: (value: string) => void
}) {
  const id = useId()
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-600">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-9 rounded-lg border border-slate-300 bg-white px-3 pr-8 text-sm text-slate-800 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/20 focus:outline-none"
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option === 'all' ? 'All' : option.charAt(0).toUpperCase() + option.slice(1)}
          </option>
        ))}
      </select>
    </div>
  )
}

function LogLine({ log }: { log: AdminLog }) {
  const hasMetadata = log.metadata !== null && Object.keys(log.metadata).length > 0
  return (
    <li
      className="px-4 py-3 sm:px-6"
      data-testid="log-line"
      data-level={log.level}
      data-service={log.service}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm sm:flex-nowrap">
        <time
          dateTime={log.timestamp}
          title={formatDateTime(log.timestamp)}
          className="shrink-0 font-mono text-xs whitespace-nowrap text-slate-500 tabular-nums sm:w-[5.5rem]"
        >
          {formatLogStamp(log.timestamp)}
        </time>
        <span
          className={cn(
            'inline-flex w-14 shrink-0 justify-center rounded-md px-1.5 py-0.5 text-[11px] font-semibold uppercase ring-1 ring-inset',
            levelClasses[log.level] ?? levelClasses.debug,
          )}
        >
          {log.level}
        </span>
        <span className="shrink-0 rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
          {log.service}
        </span>
        <span className="min-w-0 basis-full break-words text-slate-800 sm:basis-auto">{log.message}</span>
      </div>
      {hasMetadata && (
        <details className="mt-1.5 sm:ml-[10.5rem]">
          <summary className="w-fit text-xs font-medium text-slate-500 hover:text-slate-700">
            metadata
          </summary>
          <pre className="mt-1.5 overflow-x-auto rounded-lg bg-slate-950 p-3 font-mono text-xs leading-relaxed text-slate-100">
            {JSON.stringify(log.metadata, null, 2)}
          </pre>
        </details>
      )}
    </li>
  )
}

/**
 * Lines have no id in the product's shape: the line's own content is its key (with a counter for exact
 * repeats), so a line keeps its open metadata while newer lines arrive above it.
 */
function withKeys(logs: AdminLog[]): [string, AdminLog][] {
  const seen = new Map<string, number>()
  return logs.map((log) => {
    const base = `${log.timestamp}|${log.level}|${log.service}|${log.message}`
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    return [`${base}|${count}`, log]
  })
}

export function LogsTab({ autoRefresh, refreshKey }: TabProps) {
  const [level, setLevel] = useState<string>('all')
  const [service, setService] = useState<string>('all')
  const [confirming, setConfirming] = useState(false)
  const load = useCallback(() => getLogs({ level, service }), [level, service])
  const { data, loading, refresh, refreshing } = usePolling(load, {
    intervalMs: POLL_MS.logs,
    enabled: autoRefresh,
    refreshKey,
  })
  const { run, isBusy } = useAdminAction()

  const clear = async () => {
    await run(
      'clear',
      clearLogs,
      (result) => `Cleared ${result.cleared} log line${result.cleared === 1 ? '' : 's'}`,
    )
    setConfirming(false)
    void refresh()
  }

  return (
    <div className="space-y-4">
      <Card className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <div className="flex flex-wrap items-center gap-4">
          <Select label="Level" value={level} options={LEVELS} onChange={setLevel} />
          <Select label="Service" value={service} options={SERVICES} onChange={setService} />
          {refreshing && <Spinner size={16} label="Refreshing logs" className="text-slate-400" />}
        </div>
        <Button
          variant="secondary"
          size="sm"
          icon={<Trash2 className="size-4" />}
          onClick={() => setConfirming(true)}
        >
          Clear Logs
        </Button>
      </Card>

      <Card className="overflow-hidden">
        {loading && !data ? (
          <div className="flex justify-center py-16 text-brand-600">
            <Spinner size={32} label="Loading logs" />
          </div>
        ) : !data || data.length === 0 ? (
          <p className="py-14 text-center text-sm text-slate-500">No logs found</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Log lines">
            {withKeys(data).map(([key, log]) => (
              <LogLine key={key} log={log} />
            ))}
          </ul>
        )}
      </Card>
      {data && data.length > 0 && (
        <p className="text-center text-xs text-slate-500">
          Showing the newest {data.length} lines (at most 100).
        </p>
      )}

      <ConfirmDialog
        open={confirming}
        title="Clear all logs?"
        confirmLabel="Clear Logs"
        busy={isBusy('clear')}
        onConfirm={() => void clear()}
        onCancel={() => setConfirming(false)}
      >
        Every log line of every service is deleted. A single line recording who cleared them is kept.
      </ConfirmDialog>
    </div>
  )
}
