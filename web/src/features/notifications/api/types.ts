import type { Tables } from '@reachflow/db'

/**
 * A row of public.notifications as the bell shows it (product.md §3 Notification); metadata says what it
 * is about (ids), e.g. a reply's threadId.
 */
export type Notification = Pick<
  Tables<'notifications'>,
  'id' | 'user_id' | 'type' | 'title' | 'message' | 'read' | 'read_at' | 'created_at' | 'metadata'
>

export const NOTIFICATION_COLUMNS = 'id, user_id, type, title, message, read, read_at, created_at, metadata'

/** product.md §9: the bell lists the newest 20. */
export const NOTIFICATIONS_LIMIT = 20
