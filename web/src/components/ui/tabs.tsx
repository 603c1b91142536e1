import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react'
import { cn } from '@/lib/cn'
import { useScrollEdges } from './use-scroll-edges'

export interface TabItem<T extends string> {
  id: T
  label: ReactNode
  badge?: ReactNode
}

/** A row of tabs (WAI-ARIA tabs pattern: arrow keys move, the panel is labelled by its tab). */
export function Tabs<T extends string>({
  items,
  value,
  onChange,
  label,
  className,
}: {
  items: readonly TabItem<T>[]
  value: T
  onChange: (id: T) => void
  label: string
  className?: string
}) {
  const base = useId()
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    const index = items.findIndex((item) => item.id === value)
    const next = items[(index + (event.key === 'ArrowRight' ? 1 : items.length - 1)) % items.length]
    if (next) {
      onChange(next.id)
      document.getElementById(`${base}-${next.id}`)?.focus()
    }
  }
  // On a narrow screen the strip scrolls: keep the selected tab in sight.
  useEffect(() => {
    const selected = document.getElementById(`${base}-${value}`)
    if (selected && typeof selected.scrollIntoView === 'function')
      selected.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  }, [base, value])
  const ref = useRef<HTMLDivElement>(null)
  const edges = useScrollEdges(ref)
  return (
    <div
      ref={ref}
      role="tablist"
      aria-label={label}
      data-scrollable={edges.more || undefined}
      style={edges.style}
      onKeyDown={onKeyDown}
      className={cn('flex gap-1 overflow-x-auto border-b border-slate-200', className)}
    >
      {items.map((item) => {
        const selected = item.id === value
        return (
          <button
            key={item.id}
            id={`${base}-${item.id}`}
            type="button"
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(item.id)}
            className={cn(
              '-mb-px flex shrink-0 items-center gap-2 border-b-2 px-3 py-2.5 text-sm font-medium transition-colors max-sm:px-2',
              selected
                ? 'border-brand-600 text-brand-700'
                : 'border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800',
            )}
          >
            {item.label}
            {item.badge}
          </button>
        )
      })}
    </div>
  )
}
