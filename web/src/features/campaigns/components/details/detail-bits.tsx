import type { ReactNode } from 'react'
import { formatCount } from '@/lib/format'

/** A small figure tile of the detail views; 'Running' (with the live value beneath) while it runs. */
export function DetailStat({
  label,
  value,
  running = false,
  suffix,
}: {
  label: string
  value: number
  running?: boolean
  suffix?: string
}) {
  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200/70">
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
          {suffix === '%' ? value : formatCount(value)}
          {suffix}
        </p>
      )}
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
