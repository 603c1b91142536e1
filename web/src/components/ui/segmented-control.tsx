import { useRef } from 'react'
import { cn } from '@/lib/cn'
import { useScrollEdges } from './use-scroll-edges'

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
  const ref = useRef<HTMLDivElement>(null)
  // On a narrow screen the pills scroll sideways; the clipped edge fades to say there is more.
  const edges = useScrollEdges(ref)
  return (
    <div
      ref={ref}
      role="radiogroup"
      aria-label={label}
      data-scrollable={edges.more || undefined}
      style={edges.style}
      className="inline-flex max-w-full [scrollbar-width:none] gap-1 self-start overflow-x-auto overscroll-x-contain rounded-xl bg-slate-100 p-1 [&::-webkit-scrollbar]:hidden"
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
            onClick={(event) => {
              onChange(option.value)
              event.currentTarget.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
            }}
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
