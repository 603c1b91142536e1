import { cn } from '@/lib/cn'

/** A row of mutually exclusive pills (status sub-filters, lead filters). */
export function SegmentedControl<T extends string>({
  options,
  value,
  onChange,
  label,
}: {
  options: readonly { value: T; label: string; count?: number }[]
  value: T
  onChange: (value: T) => void
  label: string
}) {
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className="inline-flex max-w-full gap-1 self-start overflow-x-auto rounded-xl bg-slate-100 p-1"
    >
      {options.map((option) => {
        const selected = option.value === value
        return (
          // biome-ignore lint/a11y/useSemanticElements: a styled pill group; radio inputs cannot look like this
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={selected}
            onClick={() => onChange(option.value)}
            className={cn(
              'shrink-0 rounded-lg px-3 py-1.5 text-sm font-medium whitespace-nowrap capitalize transition',
              selected ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {option.label}
            {option.count !== undefined && (
              <span className={cn('ml-1.5 text-xs', selected ? 'text-brand-600' : 'text-slate-400')}>
                {option.count}
              </span>
            )}
          </button>
        )
      })}
    </div>
  )
}
