import type { Db } from '@/lib/database/client'
import { NOTIFICATION_COLUMNS, NOTIFICATIONS_LIMIT, type Notification } from './types'

export interface NotificationsPage {
  items: Notification[]
  /** Unread notifications in total, also those older than the newest 20 (the badge can read 99+). */
  unreadCount: number
}

/**
 * The active workspace's newest notifications and how many are unread (product.md §7): RLS scopes
 * them to that workspace and to what the caller's role there may see. Errors are thrown.
 */
export async function getNotifications(client: Db): Promise<NotificationsPage> {
  const [list, unread] = await Promise.all([
    client
      .from('notifications')
      .select(NOTIFICATION_COLUMNS)
      .order('created_at', { ascending: false })
      .limit(NOTIFICATIONS_LIMIT),
    client.from('notifications').select('id', { count: 'exact', head: true }).eq('read', false),
  ])
  if (list.error) throw new Error(`Could not load notifications: ${list.error.message}`)
  if (unread.error) throw new Error(`Could not count unread notifications: ${unread.error.message}`)
  return { items: list.data, unreadCount: unread.count ?? 0 }
}
