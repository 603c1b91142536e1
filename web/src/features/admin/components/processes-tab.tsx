// Server Processes: CPU, memory, active processes and load average, the runner processes from
// their heartbeats (every 5 s), the hosts behind the figures, and Restart / Kill. A restart shows
// until the process reports a new PID.

import type { AdminProcess } from '@reachflow/domain'
import { Activity, Cpu, Gauge, MemoryStick, Power, RotateCw } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardHeader, CardTitle } from '@/components/ui/card'
import { getHosts } from '../api/get-hosts'
import { getProcesses } from '../api/get-processes'
import { getSystemInfo } from '../api/get-system-info'
import { sendProcessCommand } from '../api/send-process-command'
import { formatNumber, formatPercent, formatUptime } from '../format'
import { useAdminAction } from '../hooks/use-admin-action'
import { usePolling } from '../hooks/use-polling'
import { ConfirmDialog } from './confirm-dialog'
import { type Column, DataTable } from './data-table'
import { Pill } from './pill'
import { StatCard, StatGrid } from './stat-card'
import { POLL_MS, type TabProps } from './tab-props'

// How long a requested restart may take before the row stops saying so (the runner acts within a
// heartbeat, 10 s, and the supervisor starts it again right away).
const RESTART_WINDOW_MS = 90_000

export function ProcessesTab({ autoRefresh, refreshKey }: TabProps) {
  const load = useCallback(async () => {
    const [processes, system, hosts] = await Promise.all([getProcesses(), getSystemInfo(), getHosts()])
    return { processes, system, hosts }
  }, [])
  const { data, loading, refresh } = usePolling(load, {
    intervalMs: POLL_MS.processes,
    enabled: autoRefresh,
    refreshKey,
  })
  const { run, isBusy } = useAdminAction()
  const [restarting, setRestarting] = useState<Record<string, { pid: number; since: number }>>({})
  const [killTarget, setKillTarget] = useState<AdminProcess | null>(null)
  const [restartTarget, setRestartTarget] = useState<AdminProcess | null>(null)

  // A restart is over once the process has gone (or reports another PID), or the wait is up.
  useEffect(() => {
    if (!data) return
    setRestarting((current) => {
      const next = { ...current }
      for (const [name, pending] of Object.entries(current)) {
        // Runners come back under a new name and PID: this one is done once it stops or moves on.
        const now = data.processes.find((p) => p.name === name)
        const over = !now || now.pid !== pending.pid || now.status === 'stopped'
        if (over || Date.now() - pending.since > RESTART_WINDOW_MS) delete next[name]
      }
      return Object.keys(next).length === Object.keys(current).length ? current : next
    })
  }, [data])

  const restart = async () => {
    const process = restartTarget
    if (!process) return
    const done = await run(
      `restart:${process.name}`,
      () => sendProcessCommand(process.name, 'restart'),
      `Restart requested for ${process.name}`,
    )
    if (done) setRestarting((r) => ({ ...r, [process.name]: { pid: process.pid, since: Date.now() } }))
    setRestartTarget(null)
    void refresh()
  }

  const kill = async () => {
    if (!killTarget) return
    await run(
      `kill:${killTarget.name}`,
      () => sendProcessCommand(killTarget.name, 'kill'),
      `Stop requested for ${killTarget.name}`,
    )
    setKillTarget(null)
    void refresh()
  }

  const running = data?.processes.filter((p) => p.status === 'running').length ?? 0
  const columns: Column<AdminProcess>[] = [
    {
      key: 'name',
      header: 'Process',
      primary: true,
      cell: (p) => <span className="font-medium text-slate-900">{p.name}</span>,
    },
    { key: 'pid', header: 'PID', numeric: true, cell: (p) => <span data-testid="process-pid">{p.pid}</span> },
    {
      key: 'status',
      header: 'Status',
      cell: (p) =>
        restarting[p.name] ? <Pill status="pending" label="Restarting…" /> : <Pill status={p.status} />,
    },
    { key: 'cpu', header: 'CPU %', numeric: true, cell: (p) => formatPercent(p.cpu) },
    { key: 'memory', header: 'Memory MB', numeric: true, cell: (p) => formatNumber(p.memory) },
    { key: 'uptime', header: 'Uptime', numeric: true, cell: (p) => formatUptime(p.uptime) },
    {
      key: 'actions',
      header: 'Actions',
      actions: true,
      cell: (p) => (
        <div className="inline-flex gap-2">
          <Button
            size="sm"
            variant="secondary"
            icon={<RotateCw className="size-3.5" />}
            loading={isBusy(`restart:${p.name}`)}
            disabled={p.status === 'stopped' || Boolean(restarting[p.name])}
            onClick={() => setRestartTarget(p)}
            aria-label={`Restart ${p.name}`}
          >
            Restart
          </Button>
          {/* red beats the ghost variant's slate only when marked important (cn does not merge) */}
          <Button
            size="sm"
            variant="ghost"
            className="text-red-600! hover:bg-red-50! disabled:text-red-300!"
            icon={<Power className="size-3.5" />}
            disabled={p.status === 'stopped'}
            onClick={() => setKillTarget(p)}
            aria-label={`Kill ${p.name}`}
          >
            Kill
          </Button>
        </div>
      ),
    },
  ]

  const load1 = data?.system.loadAvg ?? [0, 0, 0]
  return (
    <div className="space-y-6">
      <StatGrid>
        <StatCard
          testId="stat-cpu"
          label="CPU Usage"
          value={formatPercent(data?.system.cpu.usage ?? 0)}
          icon={Cpu}
          meter={data?.system.cpu.usage ?? 0}
        />
        <StatCard
          testId="stat-memory"
          label="Memory"
          value={formatPercent(data?.system.memory.percentage ?? 0)}
          icon={MemoryStick}
          accent="amber"
          meter={data?.system.memory.percentage ?? 0}
        />
        <StatCard
          testId="stat-active-processes"
          label="Active Processes"
          value={running}
          icon={Activity}
          accent={running > 0 ? 'green' : 'red'}
          detail={`${data?.processes.length ?? 0} reporting in the last 15 minutes`}
        />
        <StatCard
          testId="stat-load"
          label="Load Average"
          value={load1[0]?.toFixed(2) ?? '0.00'}
          icon={Gauge}
          accent="slate"
          detail={`1 min · 5 min ${load1[1]?.toFixed(2) ?? '0.00'} · 15 min ${load1[2]?.toFixed(2) ?? '0.00'}`}
        />
      </StatGrid>

      <DataTable
        testId="processes-table"
        label="Server processes"
        mobileColumns={3}
        columns={columns}
        rows={data?.processes ?? null}
        rowKey={(p) => p.name}
        loading={loading}
        empty="No runner processes are reporting. The runner starts with npm start and reports every 10 seconds."
      />

      {data && data.hosts.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>Hosts</CardTitle>
          </CardHeader>
          <ul className="divide-y divide-slate-100">
            {data.hosts.map((host) => (
              <li
                key={`${host.role}:${host.host}`}
                className="flex flex-wrap items-center justify-between gap-3 px-6 py-3 text-sm"
              >
                <div className="flex items-center gap-3">
                  <Pill
                    status={host.role === 'database' ? 'queued' : 'active'}
                    label={host.role === 'database' ? 'Database' : 'Runner'}
                  />
                  <span className="font-medium text-slate-900">{host.host}</span>
                </div>
                <div className="flex flex-wrap gap-x-5 gap-y-1 text-slate-600 tabular-nums">
                  {/* A runner host reports its runners' share; the database host the whole machine. */}
                  <span>
                    {host.role === 'runner' ? 'Runners CPU' : 'CPU'} {formatPercent(host.cpu)}
                  </span>
                  <span>
                    {host.role === 'runner' ? 'Runners memory' : 'Memory'}{' '}
                    {host.memoryPercentage === null ? '—' : formatPercent(host.memoryPercentage)}
                  </span>
                  <span>Load {host.loadAvg.map((v) => v.toFixed(2)).join(' / ') || '—'}</span>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      )}

      <ConfirmDialog
        open={restartTarget !== null}
        title={`Restart ${restartTarget?.name ?? ''}?`}
        confirmLabel="Restart process"
        busy={restartTarget ? isBusy(`restart:${restartTarget.name}`) : false}
        onConfirm={() => void restart()}
        onCancel={() => setRestartTarget(null)}
      >
        The runner finishes the step it is on, hands its jobs back and starts again under a new PID. Sending
        pauses for its accounts until the new process picks them up.
      </ConfirmDialog>

      <ConfirmDialog
        open={killTarget !== null}
        title={`Kill ${killTarget?.name ?? ''}?`}
        confirmLabel="Kill process"
        busy={killTarget ? isBusy(`kill:${killTarget.name}`) : false}
        onConfirm={() => void kill()}
        onCancel={() => setKillTarget(null)}
      >
        The runner finishes the step it is on and exits; its jobs wait for another runner. A supervisor (npm
        start has one) may start it again.
      </ConfirmDialog>
    </div>
  )
}
