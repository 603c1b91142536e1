import type { Db } from '@/lib/database/client'

// product.md §7: "Update one by id: read true, read_at now. Update all of the user's unread the same way."
// The database also stamps read_at when read turns true, so the two always agree.

/** Marks one notification read; returns the read_at the database stored. Errors are thrown. */
export async function markNotificationRead(client: Db, id: string): Promise<string> {
  const { data, error } = await client
    .from('notifications')
    .update({ read: true, read_at: new Date().toISOString() })
    .eq('id', id)
    .select('read_at')
    .single()
  if (error) throw new Error(`Could not mark the notification read: ${error.message}`)
  // A trigger stamps read_at whenever read turns true.
  if (!data.read_at) throw new Error('The notification was not marked read')
  return data.read_at
}

/** Marks every unread notification the caller may mark in the active workspace read. Errors are thrown. */
export async function markAllNotificationsRead(client: Db): Promise<void> {
  const { error } = await client
    .from('notifications')
    .update({ read: true, read_at: new Date().toISOString() })
    .eq('read', false)
  if (error) throw new Error(`Could not mark notifications read: ${error.message}`)
}
