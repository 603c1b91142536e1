import { cn } from '@/lib/cn'

/** An on/off switch: a button with role switch, so Space and Enter toggle it and readers say its state. */
export function Switch({
  checked,
  onChange,
  label,
  disabled = false,
  id,
  className,
}: {
  checked: boolean
  onChange: (checked: boolean) => void
  /** What it turns on or off, for screen readers (the visible text beside it may be shorter). */
  label: string
  disabled?: boolean
  id?: string
  className?: string
}) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50',
        checked ? 'bg-brand-600' : 'bg-slate-300',
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'inline-block size-5 rounded-full bg-white shadow transition-transform',
          checked ? 'translate-x-5.5' : 'translate-x-0.5',
        )}
      />
    </button>
  )
}
