import { z } from 'zod'
import { cn } from '@/lib/cn'
import { relativeTime } from '@/lib/relative-time'
import type { Notification } from '../api/types'
import { NotificationIcon } from './notification-icon'

/** An account alert's metadata once the database resolved it: the account is active again, or deleted. */
const resolvedAlert = z.object({ resolvedAt: z.string(), resolution: z.literal('deleted').optional() })

interface NotificationItemProps {
  notification: Notification
  /** Absent for a role that may not mark notifications read: the row only reads. */
  onMarkRead?: (id: string) => void
  /** Opens what the notification is about (a reply's conversation). */
  onOpen?: () => void
}

/** One row of the panel; unread rows are highlighted and a click marks them read (product.md §4). */
export function NotificationItem({ notification, onMarkRead, onOpen }: NotificationItemProps) {
  const { id, type, title, message, read, created_at } = notification
  // an account alert the database resolved: its account is active again, or was deleted
  const resolved = resolvedAlert.safeParse(notification.metadata)
  const content = (
    <>
      <NotificationIcon type={type} />
      <span className="min-w-0 flex-1">
        <span className="flex items-start justify-between gap-2">
          <span className={cn('text-sm text-slate-900', read ? 'font-medium' : 'font-semibold')}>
            {!read && <span className="sr-only">Unread: </span>}
            {title}
          </span>
          {!read && <span className="mt-1.5 size-2 shrink-0 rounded-full bg-brand-600" aria-hidden="true" />}
        </span>
        {message && <span className="mt-0.5 block text-sm text-slate-600">{message}</span>}
        <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
          {relativeTime(created_at)}
          {resolved.success && (
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-700 ring-1 ring-emerald-200">
              {resolved.data.resolution === 'deleted'
                ? 'Resolved: the account was removed'
                : 'Resolved: the account is active again'}
            </span>
          )}
        </span>
      </span>
    </>
  )
  // A row that neither opens nor marks anything (a role that only reads) is text, not a dead button.
  if (!onOpen && !onMarkRead) {
    return (
      <li>
        <div data-read={read} className="flex w-full gap-3 px-4 py-3">
          {content}
        </div>
      </li>
    )
  }
  return (
    <li>
      <button
        type="button"
        onClick={() => {
          if (!read) onMarkRead?.(id)
          onOpen?.()
        }}
        data-read={read}
        className={cn(
          'flex w-full gap-3 px-4 py-3 text-left transition-colors focus:outline-none focus-visible:bg-slate-100',
          read && !onOpen ? 'cursor-default hover:bg-slate-50' : '',
          read ? 'hover:bg-slate-50' : 'bg-brand-50/60 hover:bg-brand-50',
        )}
      >
        {content}
      </button>
    </li>
  )
}
