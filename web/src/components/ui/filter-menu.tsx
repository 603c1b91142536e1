import { Check, ChevronDown } from 'lucide-react'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { cn } from '@/lib/cn'

export interface FilterOption {
  value: string
  label: string
}

/**
 * A toolbar button that opens a list of choices and filters by the chosen one (the product's Filter,
 * Status, Industry and Platform buttons, made to work). The empty value means "all".
 */
export function FilterMenu({
  label,
  icon,
  options,
  value,
  onChange,
  allLabel = 'All',
}: {
  label: string
  icon?: ReactNode
  options: readonly FilterOption[]
  value: string
  onChange: (value: string) => void
  allLabel?: string
}) {
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const chosen = options.find((o) => o.value === value)

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    rootRef.current?.querySelector<HTMLElement>('[role="menuitemradio"][aria-checked="true"]')?.focus()
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  const choose = (next: string) => {
    onChange(next)
    setOpen(false)
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        className={cn(
          'inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-medium shadow-sm ring-1 ring-inset transition-colors',
          chosen
            ? 'bg-brand-50 text-brand-700 ring-brand-200'
            : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
        )}
      >
        {icon}
        {chosen ? `${label}: ${chosen.label}` : label}
        <ChevronDown className="size-4 opacity-60" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false)
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault()
              const items = [
                ...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? []),
              ]
              const at = items.indexOf(document.activeElement as HTMLElement)
              items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus()
            }
          }}
          className="absolute left-0 z-20 mt-1.5 max-h-72 min-w-48 overflow-y-auto rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-200"
        >
          {[{ value: '', label: allLabel }, ...options].map((option) => (
            <button
              key={option.value || '__all'}
              type="button"
              role="menuitemradio"
              aria-checked={option.value === value}
              onClick={() => choose(option.value)}
              className="flex w-full items-center justify-between gap-3 rounded-lg px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none"
            >
              {option.label}
              {option.value === value && <Check className="size-4 text-brand-600" aria-hidden="true" />}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
