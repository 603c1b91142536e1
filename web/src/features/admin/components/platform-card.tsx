// One platform on the Platform health tab: its state from its last finished run (healthy, partly
// checked, paused after a site change, failing, not checked yet), what is paused with Resume, the canary's last run step by step, thirty
// days of runs and the pack in use, and Run canary now.

import type { PlatformHealth, PlatformPause } from '@reachflow/domain'
import { Pause, Play, RadioTower } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader } from '@/components/ui/card'
import { relativeTime } from '@/lib/relative-time'
import { formatDateTime } from '../format'
import { CanaryHistory } from './canary-history'
import { CanaryRunSteps, formatMs, runOutcome } from './canary-run-steps'
import { Pill } from './pill'

const STATUS: Record<PlatformHealth['status'], { status: string; label: string }> = {
  healthy: { status: 'active', label: 'Healthy' },
  paused: { status: 'paused', label: 'Paused: site change' },
  partial: { status: 'warning', label: 'Partly checked' },
  failing: { status: 'failed', label: 'Canary failing' },
  unknown: { status: 'pending', label: 'Not checked yet' },
}

interface PlatformCardProps {
  health: PlatformHealth
  onResume: (pause: PlatformPause) => void
  onRunCanary: () => void
  busy: (key: string) => boolean
}

export function PlatformCard({ health, onResume, onRunCanary, busy }: PlatformCardProps) {
  const state = STATUS[health.status]
  const run = health.lastRun
  return (
    <Card data-testid={`platform-card-${health.platform}`} className="flex flex-col">
      <CardHeader className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <h3 className="text-lg font-semibold text-slate-900">{health.label}</h3>
          <Pill status={state.status} label={state.label} />
        </div>
        <Button
          size="sm"
          variant="secondary"
          icon={<RadioTower className="size-3.5" />}
          loading={busy(`canary:${health.platform}`)}
          onClick={onRunCanary}
          aria-label={`Run the ${health.label} canary now`}
        >
          Run canary now
        </Button>
      </CardHeader>
      <CardBody className="flex flex-1 flex-col gap-5">
        {health.pauses.length > 0 && (
          <div className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200 ring-inset" role="status">
            <p className="flex items-center gap-2 text-sm font-semibold text-amber-900">
              <Pause className="size-4" aria-hidden="true" />
              Paused on every account while we adapt
            </p>
            <ul className="mt-3 space-y-2">
              {health.pauses.map((pause) => (
                <li key={pause.action} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                  <span className="text-amber-900">
                    <span className="font-medium">{pause.actionLabel}</span> since{' '}
                    <time dateTime={pause.pausedAt}>{formatDateTime(pause.pausedAt)}</time>
                  </span>
                  <Button
                    size="sm"
                    variant="secondary"
                    icon={<Play className="size-3.5" />}
                    loading={busy(`resume:${pause.platform}:${pause.action}`)}
                    onClick={() => onResume(pause)}
                    aria-label={`Resume ${pause.actionLabel.toLowerCase()} on ${pause.label}`}
                  >
                    Resume
                  </Button>
                </li>
              ))}
            </ul>
            <p className="mt-3 text-xs text-amber-800">
              It resumes by itself when the canary passes again with the pack in use.
            </p>
          </div>
        )}

        <section aria-label={`${health.label} last canary run`}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h4 className="text-sm font-semibold text-slate-900">Last canary run</h4>
            {run && (
              <p className="text-xs text-slate-500">
                <time dateTime={run.createdAt} title={formatDateTime(run.createdAt)}>
                  {relativeTime(run.createdAt)}
                </time>
                {run.accountUsername && <> · @{run.accountUsername}</>}
                {run.durationMs !== null && <> · {formatMs(run.durationMs)}</>}
              </p>
            )}
          </div>
          {run ? (
            <div className="mt-3">
              <Pill {...runOutcome(run)} />
              <CanaryRunSteps run={run} className="mt-3" />
            </div>
          ) : (
            <p className="mt-2 text-sm text-slate-500">
              {health.canaryAccounts === 0
                ? 'Choose a canary account below: the canary checks the platform every few minutes with it.'
                : 'The first run is queued: it shows here within a few minutes.'}
            </p>
          )}
        </section>

        <CanaryHistory days={health.history} />

        <p className="mt-auto text-xs text-slate-500">
          Pack in use:{' '}
          <span className="font-mono text-slate-700">{health.pack?.version ?? 'none registered'}</span>
          {health.pack && (health.pack.source === 'code' ? ' (code default)' : ' (published)')} ·{' '}
          {health.canaryAccounts} canary {health.canaryAccounts === 1 ? 'account' : 'accounts'}
        </p>
      </CardBody>
    </Card>
  )
}
