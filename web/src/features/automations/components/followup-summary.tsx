import { AlertTriangle, Clock } from 'lucide-react'
import type { FollowupResults } from '../api/types'
import { delayLabel } from '../automation-form'

function Count({ label, value, tone }: { label: string; value: number; tone?: 'red' }) {
  return (
    <div className="rounded-lg bg-white px-2.5 py-1.5 ring-1 ring-slate-200">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd
        className={`text-base font-semibold tabular-nums ${tone === 'red' && value > 0 ? 'text-red-700' : 'text-slate-900'}`}
      >
        {value.toLocaleString('en-US')}
      </dd>
    </div>
  )
}

/** An automation's follow-up on its card: when it goes, what it says, and what became of them. */
export function FollowupSummary({
  text,
  delayMinutes,
  results,
}: {
  text: string
  delayMinutes: number
  results: FollowupResults
}) {
  return (
    <section aria-label="Follow-up" className="mt-3 rounded-lg bg-slate-50 px-3 py-2.5">
      <p className="flex items-center gap-1.5 text-xs font-medium text-slate-700">
        <Clock className="size-3.5 text-slate-400" aria-hidden="true" />
        Follows up after {delayLabel(delayMinutes)} if they don't answer
        {results.waiting > 0 && (
          <span className="font-normal text-slate-500">· {results.waiting} waiting</span>
        )}
      </p>
      <p className="mt-1 line-clamp-1 text-xs text-slate-600">“{text}”</p>
      <dl className="mt-2 grid grid-cols-3 gap-2">
        <Count label="Follow-ups sent" value={results.sent} />
        <Count label="Skipped (answered)" value={results.skipped} />
        <Count label="Not sent" value={results.notSent} tone="red" />
      </dl>
      {results.reasons.length > 0 && (
        <div className="mt-2">
          <p className="flex items-center gap-1.5 text-xs font-medium text-red-800">
            <AlertTriangle className="size-3.5" aria-hidden="true" />
            Why follow-ups were not sent
          </p>
          <ul className="mt-0.5 space-y-0.5">
            {results.reasons.map((r) => (
              <li key={r.reason} className="text-xs text-red-700">
                <span className="font-semibold tabular-nums">{r.count}×</span> {r.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}
