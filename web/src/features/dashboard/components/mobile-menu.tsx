import { X } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { createPortal } from 'react-dom'
import { SidebarContent, type SidebarProps } from './sidebar'

/** product.md §2: on small screens the sidebar slides in from the left. */
export function MobileMenu({
  open,
  onClose,
  ...sidebar
}: SidebarProps & { open: boolean; onClose: () => void }) {
  const panelRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    panelRef.current?.querySelector<HTMLElement>('button, a')?.focus()
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose()
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open, onClose])
  if (!open) return null
  return createPortal(
    <div className="fixed inset-0 z-40 lg:hidden">
      <div
        className="absolute inset-0 bg-slate-900/40 backdrop-blur-sm"
        aria-hidden="true"
        onClick={onClose}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        className="absolute inset-y-0 left-0 w-72 max-w-[85vw] animate-[slide-in_200ms_ease-out] bg-white shadow-2xl"
      >
        <button
          type="button"
          onClick={onClose}
          aria-label="Close menu"
          className="absolute top-4 right-3 rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
        >
          <X className="size-5" aria-hidden="true" />
        </button>
        <SidebarContent
          {...sidebar}
          onTabChange={(tab) => {
            sidebar.onTabChange(tab)
            onClose()
          }}
        />
      </div>
    </div>,
    document.body,
  )
}
