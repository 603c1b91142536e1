// product.md §4 "Notifications": clicking an unread item marks it read and sets read_at; mark all sets
// every unread one read and the count to 0; the count never goes below 0; the badge shows '99+'
// above 99. Pure functions so the rules are tested without a server.
import { z } from 'zod'
import type { Notification } from './api/types'

/** What a reply's notification metadata holds (jsonb): the conversation it is about. */
const replyMetadata = z.object({ threadId: z.string() })

export interface NotificationsData {
  items: Notification[]
  unreadCount: number
}

/** The badge text, or null when there is nothing unread. */
export function badgeLabel(unreadCount: number): string | null {
  if (unreadCount <= 0) return null
  return unreadCount > 99 ? '99+' : String(unreadCount)
}

/** One notification read at `readAt`; the count drops only if it was unread, never below 0. */
export function withRead(data: NotificationsData, id: string, readAt: string): NotificationsData {
  const target = data.items.find((item) => item.id === id)
  if (!target || target.read) return data
  return {
    items: data.items.map((item) => (item.id === id ? { ...item, read: true, read_at: readAt } : item)),
    unreadCount: Math.max(0, data.unreadCount - 1),
  }
}

/** Every notification read; unread ones get `readAt`, the count is 0. */
export function withAllRead(data: NotificationsData, readAt: string): NotificationsData {
  return {
    items: data.items.map((item) => (item.read ? item : { ...item, read: true, read_at: readAt })),
    unreadCount: 0,
  }
}

/** The inbox conversation a "New reply" notification is about, if it says. */
export function replyThreadId(notification: Notification): string | null {
  if (notification.type !== 'lead_replied') return null
  const about = replyMetadata.safeParse(notification.metadata)
  return about.success && about.data.threadId ? about.data.threadId : null
}
