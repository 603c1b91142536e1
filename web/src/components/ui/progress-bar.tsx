import { cn } from '@/lib/cn'

/** A horizontal bar for a percentage (clamped to 0-100). */
export function ProgressBar({
  value,
  className,
  label,
}: {
  value: number
  className?: string
  label: string
}) {
  const clamped = Math.max(0, Math.min(100, Number.isFinite(value) ? value : 0))
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-100', className)}
    >
      <div
        className="h-full rounded-full bg-brand-gradient transition-[width] duration-500"
        style={{ width: `${clamped}%` }}
      />
    </div>
  )
}
