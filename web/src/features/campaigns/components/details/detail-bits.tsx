import { formatRate } from '@reachflow/domain'
import type { ReactNode } from 'react'
import { formatCount } from '@/lib/format'

/**
 * A small figure tile of the detail views; 'Running' (with the live value beneath) while it runs. A
 * rate (suffix '%') reads "—" while it has nothing to divide by.
 */
export function DetailStat({
  label,
  value,
  running = false,
  suffix,
  definition,
  detail,
}: {
  label: string
  value: number | null
  running?: boolean
  suffix?: string
  /** What the figure counts (domain CAMPAIGN_FIGURE_DEFINITIONS), for a pointer or screen reader. */
  definition?: string
  /** The counts behind a rate, beneath it ("8 of 24 eligible"). */
  detail?: string
}) {
  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200/70" title={definition}>
      <p className="text-xs font-medium text-slate-500">{label}</p>
      {running ? (
        <p className="mt-1">
          <span className="inline-flex items-center gap-1.5 text-lg font-semibold text-emerald-700">
            <span className="size-2 animate-pulse rounded-full bg-emerald-500" aria-hidden="true" />
            Running
          </span>
          <span className="block text-xs text-slate-500" data-testid={`detail-${label}`}>
            {formatCount(value)}
            {suffix} so far
          </span>
        </p>
      ) : (
        <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums" data-testid={`detail-${label}`}>
          {suffix === '%' ? formatRate(value, 1) : `${formatCount(value)}${suffix ?? ''}`}
        </p>
      )}
      {detail && <p className="mt-0.5 text-xs text-slate-500">{detail}</p>}
    </div>
  )
}

export function InfoList({ rows }: { rows: { label: string; value: ReactNode }[] }) {
  return (
    <dl className="divide-y divide-slate-100 rounded-xl px-4 ring-1 ring-slate-200">
      {rows.map((row) => (
        <div key={row.label} className="flex justify-between gap-4 py-2.5 text-sm">
          <dt className="text-slate-500">{row.label}</dt>
          <dd className="text-right font-medium text-slate-900">{row.value}</dd>
        </div>
      ))}
    </dl>
  )
}

export function SectionTitle({ children }: { children: ReactNode }) {
  return <h4 className="mb-2 text-sm font-semibold text-slate-900">{children}</h4>
}
