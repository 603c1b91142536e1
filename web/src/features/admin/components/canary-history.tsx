// Thirty days of canary runs as a strip of days: green when every run passed, red when one failed,
// amber when the canary could not run (its account, not the site), grey without runs.

import type { CanaryDay } from '@reachflow/domain'
import { cn } from '@/lib/cn'
import { formatDate } from '../format'

function tone(day: CanaryDay): string {
  if (day.failed > 0) return 'bg-red-500'
  if (day.errors > 0) return 'bg-amber-400'
  if (day.passed > 0) return 'bg-emerald-500'
  return 'bg-slate-200'
}

function describeDay(day: CanaryDay): string {
  const runs = day.passed + day.failed + day.errors
  if (runs === 0) return `${formatDate(day.day)}: no runs`
  return `${formatDate(day.day)}: ${day.passed} passed, ${day.failed} failed, ${day.errors} could not run`
}

export function CanaryHistory({ days }: { days: CanaryDay[] }) {
  const runs = days.reduce((sum, d) => sum + d.passed + d.failed + d.errors, 0)
  const passed = days.reduce((sum, d) => sum + d.passed, 0)
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3 text-xs text-slate-500">
        <span>Last {days.length} days</span>
        <span className="tabular-nums">
          {runs === 0 ? 'No runs yet' : `${Math.round((passed / runs) * 1000) / 10}% of ${runs} runs passed`}
        </span>
      </div>
      <ul className="mt-1.5 flex h-7 items-stretch gap-[3px]" aria-label="Canary runs per day">
        {days.map((day) => (
          <li key={day.day} className={cn('min-w-0 flex-1 rounded-sm', tone(day))} title={describeDay(day)}>
            <span className="sr-only">{describeDay(day)}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
