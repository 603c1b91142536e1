// A canary run's steps as the panel and the pack editor show them: what each step did, how long it
// took, and for a failure what kind it was (a changed page is a site change; a stop signal or a
// timeout is about the account or the moment, not the site; a skipped step checked nothing).

import type { CanaryRun, CanaryStepResult } from '@reachflow/domain'
import { CircleCheck, CircleMinus, CircleX } from 'lucide-react'
import { cn } from '@/lib/cn'

const KIND_LABELS: Record<NonNullable<CanaryStepResult['kind']>, string> = {
  layout_changed: 'Site change',
  stop_signal: 'Stop signal',
  timeout: 'Timed out',
  error: 'Error',
}

const RUN_LABELS: Record<CanaryRun['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  passed: 'Passed',
  failed: 'Failed',
  error: 'Could not run',
}

/** The steps a run skipped: they had nothing to check (no conversation to open), so checked nothing. */
export const skippedSteps = (run: Pick<CanaryRun, 'steps'> | null) =>
  run?.steps.filter((step) => step.status === 'skipped') ?? []

/** A run's pill: a pass that skipped a step is no full pass, and says so. */
export function runOutcome(run: Pick<CanaryRun, 'status' | 'steps'> | null): {
  status: string
  label: string
} {
  if (!run) return { status: 'queued', label: RUN_LABELS.queued }
  const skipped = skippedSteps(run).length
  if (run.status === 'passed' && skipped > 0)
    return {
      status: 'warning',
      label: `Partly checked: ${skipped} ${skipped === 1 ? 'step' : 'steps'} skipped`,
    }
  return { status: run.status === 'error' ? 'warning' : run.status, label: RUN_LABELS[run.status] }
}

export const formatMs = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`

function StepIcon({ status }: { status: CanaryStepResult['status'] }) {
  if (status === 'passed')
    return <CircleCheck className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
  if (status === 'failed') return <CircleX className="size-4 shrink-0 text-red-600" aria-hidden="true" />
  return <CircleMinus className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
}

export function CanaryRunSteps({ run, className }: { run: CanaryRun; className?: string }) {
  if (run.steps.length === 0)
    return run.error ? <p className={cn('text-sm text-red-700', className)}>{run.error}</p> : null
  return (
    <ol className={cn('space-y-2', className)} aria-label="Canary steps">
      {run.steps.map((step) => (
        <li
          key={step.step}
          className="flex items-start gap-2.5 text-sm"
          data-step={step.step}
          data-status={step.status}
        >
          <StepIcon status={step.status} />
          <div className="min-w-0 flex-1">
            <p className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-medium text-slate-800">
                {step.label}
                <span className="sr-only">: {step.status}</span>
              </span>
              <span className="text-xs text-slate-500 tabular-nums">{formatMs(step.ms)}</span>
            </p>
            {step.status === 'failed' ? (
              <p className="mt-0.5 break-words text-xs text-red-700">
                {step.kind && <span className="font-semibold">{KIND_LABELS[step.kind]}: </span>}
                {step.message}
                {step.path && <span className="font-mono"> ({step.path})</span>}
              </p>
            ) : (
              (step.detail || step.message) && (
                <p className="mt-0.5 break-words text-xs text-slate-500">{step.detail ?? step.message}</p>
              )
            )}
          </div>
        </li>
      ))}
    </ol>
  )
}
