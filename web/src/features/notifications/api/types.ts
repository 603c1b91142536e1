/** A row of public.notifications as the bell shows it (spec §3 Notification). */
export interface Notification {
  id: string
  user_id: string
  type: string
  title: string
  message: string
  read: boolean
  read_at: string | null
  created_at: string
  /** What the notification is about (ids), e.g. a reply's threadId. */
  metadata?: Record<string, unknown> | null
}

export const NOTIFICATION_COLUMNS = 'id, user_id, type, title, message, read, read_at, created_at, metadata'

/** Spec §9: the bell lists the newest 20. */
export const NOTIFICATIONS_LIMIT = 20
