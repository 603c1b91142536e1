import { Bell, CheckCheck, X } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { badgeLabel, replyThreadId } from '../notification-rules'
import { NotificationItem } from './notification-item'
import { useNotifications } from './notifications-provider'

/** product.md §2 "Notifications dropdown": bell with the unread badge and the Notifications panel. */
export function NotificationsBell({ onOpenReply }: { onOpenReply?: (threadId: string) => void } = {}) {
  const items = useNotifications((s) => s.items)
  const unreadCount = useNotifications((s) => s.unreadCount)
  const loading = useNotifications((s) => s.loading)
  const markRead = useNotifications((s) => s.markRead)
  const markAllRead = useNotifications((s) => s.markAllRead)
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  const panelId = useId()
  const titleId = useId()
  // Marking read is a write an agent and a viewer may not make (the role matrix): they read the
  // list without a count they could never clear, and a reply opens its conversation only for roles
  // with the inbox. The role store, not a query: this bell stands in headers without a query client.
  const { can, loading: roleLoading } = useWorkspaceRole()
  const canMarkRead = roleLoading || can.editWorkspace
  const opensReplies = Boolean(onOpenReply) && (roleLoading || can.inbox)
  const badge = canMarkRead ? badgeLabel(unreadCount) : null

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    // On the document, not the panel: after 'Mark all as read' disables itself focus has left it.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      setOpen(false)
      buttonRef.current?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    panelRef.current?.focus()
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [open])

  const close = () => {
    setOpen(false)
    buttonRef.current?.focus()
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={badge ? `Notifications, ${badge} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((v) => !v)}
        className="relative rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <Bell className="size-5" aria-hidden="true" />
        {badge && (
          <span
            data-testid="notifications-badge"
            aria-hidden="true"
            className="absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-none font-bold text-white ring-2 ring-white"
          >
            {badge}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
          className="fixed inset-x-2 top-16 z-40 flex max-h-[min(32rem,calc(100vh-5rem))] flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xl focus:outline-none sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-96"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
            <h2 id={titleId} className="text-sm font-semibold text-slate-900">
              Notifications
            </h2>
            <div className="flex items-center gap-1">
              {canMarkRead && (
                <button
                  type="button"
                  onClick={() => void markAllRead()}
                  disabled={unreadCount === 0}
                  className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent"
                >
                  <CheckCheck className="size-3.5" aria-hidden="true" />
                  Mark all as read
                </button>
              )}
              <button
                type="button"
                onClick={close}
                aria-label="Close notifications"
                className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            </div>
          </div>
          <div className="overflow-y-auto">
            {loading ? (
              <p className="px-4 py-8 text-center text-sm text-slate-500">Loading...</p>
            ) : items.length === 0 ? (
              <p className="px-4 py-8 text-center text-sm text-slate-500">No notifications yet</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {items.map((notification) => (
                  <NotificationItem
                    key={notification.id}
                    notification={notification}
                    onMarkRead={canMarkRead ? (id) => void markRead(id) : undefined}
                    onOpen={
                      onOpenReply && opensReplies && replyThreadId(notification)
                        ? () => {
                            setOpen(false)
                            onOpenReply(replyThreadId(notification) as string)
                          }
                        : undefined
                    }
                  />
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </div>
  )
}
