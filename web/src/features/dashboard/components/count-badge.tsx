import { cn } from '@/lib/cn'

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })

/** The number beside a tab; '…' while it loads. */
export function CountBadge({ value, active = false }: { value: number | undefined; active?: boolean }) {
  return (
    <span
      className={cn(
        'ml-auto min-w-6 rounded-full px-2 py-0.5 text-center text-xs font-semibold tabular-nums',
        active ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-600',
      )}
    >
      {value === undefined ? '…' : value >= 10_000 ? compact.format(value) : value}
    </span>
  )
}
