import { ROLE_LABELS } from '@reachflow/domain'
import { Building2, Check, ChevronsUpDown, Plus, Search, Settings2, Users } from 'lucide-react'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { cn } from '@/lib/cn'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { switchWorkspace } from '@/lib/workspace/workspace-store'
import { CreateWorkspaceDialog } from './create-workspace-dialog'

/** From this many workspaces (more than the list shows without scrolling) the menu offers a search. */
export const SEARCH_FROM = 7

const itemClass =
  'flex w-full items-center gap-2.5 rounded-lg px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none'

/** The header's workspace menu: the active workspace and role, the others to switch to, and create. */
export function WorkspaceSwitcher() {
  const { workspace, workspaces, can, loading } = useWorkspaceRole()
  const toast = useToast()
  const [open, setOpen] = useState(false)
  const [creating, setCreating] = useState(false)
  const [switching, setSwitching] = useState<string | null>(null)
  const [query, setQuery] = useState('')
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    rootRef.current
      ?.querySelector<HTMLElement>('input[type="search"], [role="menuitem"], [role="menuitemradio"]')
      ?.focus()
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  useEffect(() => {
    if (!open) setQuery('')
  }, [open])

  const searchable = workspaces.length >= SEARCH_FROM
  const needle = query.trim().toLocaleLowerCase()
  const shown = needle ? workspaces.filter((w) => w.name.toLocaleLowerCase().includes(needle)) : workspaces

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [
      ...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"], [role="menuitemradio"]') ?? []),
    ]
    const index = items.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') {
      event.preventDefault()
      setOpen(false)
      buttonRef.current?.focus()
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      items[(index + step + items.length) % items.length]?.focus()
    } else if (event.key === 'Tab') {
      setOpen(false)
    }
  }

  const choose = async (id: string) => {
    if (id === workspace?.id) return setOpen(false)
    setSwitching(id)
    try {
      await switchWorkspace(id, paths.dashboard)
    } catch (error) {
      setSwitching(null)
      toast.error(`Failed to switch workspace: ${error instanceof Error ? error.message : 'Unknown error'}`)
    }
  }

  if (loading && !workspace) {
    return <div className="h-9 w-36 animate-pulse rounded-lg bg-slate-100" aria-hidden="true" />
  }

  return (
    <div ref={rootRef} className="relative min-w-0 max-w-[7.5rem] shrink sm:max-w-[16rem]">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Workspace: ${workspace?.name ?? 'none'}`}
        onClick={() => setOpen((v) => !v)}
        className="flex h-9 w-full items-center gap-1.5 rounded-lg px-2 text-left ring-1 ring-slate-200 ring-inset hover:bg-slate-50 sm:gap-2 sm:px-2.5"
      >
        <Building2 className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
        <span className="min-w-0">
          <span className="block truncate text-sm font-semibold text-slate-900">
            {workspace?.name ?? 'No workspace'}
          </span>
          {workspace && (
            <span className="block truncate text-[11px] leading-3 text-slate-500 max-sm:hidden">
              {ROLE_LABELS[workspace.role]}
            </span>
          )}
        </span>
        <ChevronsUpDown className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
      </button>
      {open && (
        // biome-ignore lint/a11y/noStaticElementInteractions: the popover only routes the menu's arrow keys and Escape
        <div
          onKeyDown={onMenuKeyDown}
          className="z-40 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200 max-sm:fixed max-sm:inset-x-4 max-sm:top-16 sm:absolute sm:left-0 sm:mt-2 sm:w-72"
        >
          <p className="px-3 pt-1.5 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Workspaces
          </p>
          {searchable && (
            <div className="relative px-1.5 pb-1.5">
              <Search
                className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-[calc(50%+3px)] text-slate-400"
                aria-hidden="true"
              />
              <input
                type="search"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                aria-label="Find a workspace"
                placeholder="Find a workspace"
                className="h-9 w-full rounded-lg border border-slate-200 pr-3 pl-8 text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/20 focus:outline-none"
              />
            </div>
          )}
          <div id={menuId} role="menu" aria-label="Workspaces" tabIndex={-1}>
            <div className="max-h-72 overflow-y-auto">
              {shown.length === 0 && (
                <p className="px-3 py-2 text-sm text-slate-500">No workspace matches “{query.trim()}”.</p>
              )}
              {shown.map((w) => (
                <button
                  key={w.id}
                  type="button"
                  role="menuitemradio"
                  aria-checked={w.isActive}
                  disabled={switching !== null}
                  onClick={() => void choose(w.id)}
                  className={cn(itemClass, w.isActive && 'bg-brand-50/60')}
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-900">{w.name}</span>
                    <span className="block text-xs text-slate-500">
                      {ROLE_LABELS[w.role]} · {w.memberCount} {w.memberCount === 1 ? 'member' : 'members'}
                    </span>
                  </span>
                  {switching === w.id ? (
                    <span className="text-xs text-slate-500">Switching…</span>
                  ) : (
                    w.isActive && <Check className="size-4 text-brand-600" aria-hidden="true" />
                  )}
                </button>
              ))}
            </div>
            <div className="my-1 border-t border-slate-100" />
            {can.manageMembers && (
              <Link to={paths.members} role="menuitem" className={itemClass} onClick={() => setOpen(false)}>
                <Users className="size-4 text-slate-500" aria-hidden="true" />
                Members
              </Link>
            )}
            <Link
              to={paths.workspaceSettings}
              role="menuitem"
              className={itemClass}
              onClick={() => setOpen(false)}
            >
              <Settings2 className="size-4 text-slate-500" aria-hidden="true" />
              Workspace settings
            </Link>
            <button
              type="button"
              role="menuitem"
              className={itemClass}
              onClick={() => {
                setOpen(false)
                setCreating(true)
              }}
            >
              <Plus className="size-4 text-slate-500" aria-hidden="true" />
              Create workspace
            </button>
          </div>
        </div>
      )}
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  )
}
