import { cn } from '@/lib/cn'

/** The four spinner sizes of the product, in pixels. */
export type SpinnerSize = 16 | 24 | 32 | 48

interface SpinnerProps {
  size?: SpinnerSize
  className?: string
  /** Read by screen readers; pass '' when a surrounding element already announces the busy state. */
  label?: string
}

export function Spinner({ size = 24, className, label = 'Loading' }: SpinnerProps) {
  const stroke = size <= 16 ? 2.5 : size >= 48 ? 4 : 3
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      className={cn('animate-spin', className)}
      role={label ? 'status' : undefined}
      aria-label={label || undefined}
      aria-hidden={label ? undefined : true}
      data-size={size}
    >
      <circle cx="12" cy="12" r="9.5" stroke="currentColor" strokeOpacity="0.2" strokeWidth={stroke} />
      <path
        d="M21.5 12a9.5 9.5 0 0 0-9.5-9.5"
        stroke="currentColor"
        strokeWidth={stroke}
        strokeLinecap="round"
      />
    </svg>
  )
}

/** A centred spinner filling the viewport, for route-level loading. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center text-brand-600">
      <Spinner size={48} label={label} />
    </div>
  )
}
