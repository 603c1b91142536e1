import { CreditCard, LogOut, UserRound } from 'lucide-react'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { Link } from 'react-router'
import { cn } from '@/lib/cn'
import { initials } from '@/lib/initials'

interface AccountMenuProps {
  name?: string | null
  email?: string | null
  avatarUrl?: string | null
  onSignOut: () => void
  profileSettingsHref: string
  accountSettingsHref: string
}

/** Avatar button opening a menu with the user's name and e-mail, the two settings links and Sign Out. */
export function AccountMenu({
  name,
  email,
  avatarUrl,
  onSignOut,
  profileSettingsHref,
  accountSettingsHref,
}: AccountMenuProps) {
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    rootRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  const close = () => {
    setOpen(false)
    buttonRef.current?.focus()
  }

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
    const index = items.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') {
      event.preventDefault()
      close()
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      items[(index + step + items.length) % items.length]?.focus()
    } else if (event.key === 'Tab') {
      setOpen(false)
    }
  }

  const itemClass =
    'flex w-full items-center gap-2.5 rounded-lg px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none'

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label="Account menu"
        onClick={() => setOpen((v) => !v)}
        className="flex size-9 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-sm font-semibold text-brand-700 ring-2 ring-white hover:ring-brand-200"
      >
        {avatarUrl ? (
          <img src={avatarUrl} alt="" className="size-full object-cover" />
        ) : (
          initials(name, email)
        )}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          tabIndex={-1}
          aria-label="Account"
          onKeyDown={onMenuKeyDown}
          className={cn(
            'absolute right-0 z-40 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-1.5 shadow-xl',
          )}
        >
          <div className="flex items-center gap-3 border-b border-slate-100 px-3 py-2.5">
            <span className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
              {avatarUrl ? (
                <img src={avatarUrl} alt="" className="size-full object-cover" />
              ) : (
                initials(name, email)
              )}
            </span>
            <span className="min-w-0">
              {name && <span className="block truncate text-sm font-semibold text-slate-900">{name}</span>}
              {email && <span className="block truncate text-xs text-slate-500">{email}</span>}
            </span>
          </div>
          <div className="py-1">
            <Link
              role="menuitem"
              to={profileSettingsHref}
              className={itemClass}
              onClick={() => setOpen(false)}
            >
              <UserRound className="size-4 text-slate-400" aria-hidden="true" />
              Profile Settings
            </Link>
            <Link
              role="menuitem"
              to={accountSettingsHref}
              className={itemClass}
              onClick={() => setOpen(false)}
            >
              <CreditCard className="size-4 text-slate-400" aria-hidden="true" />
              Account Settings
            </Link>
          </div>
          <div className="border-t border-slate-100 pt-1">
            <button
              role="menuitem"
              type="button"
              className={cn(itemClass, 'text-red-600 hover:bg-red-50 focus:bg-red-50')}
              onClick={() => {
                setOpen(false)
                onSignOut()
              }}
            >
              <LogOut className="size-4" aria-hidden="true" />
              Sign Out
            </button>
          </div>
        </div>
      )}
    </div>
  )
}
