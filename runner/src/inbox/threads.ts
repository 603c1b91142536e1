// The whole conversation with a person who replied, stored for the Conversations inbox. The
// database function does the work in one transaction (supabase/migrations/*_conversations_inbox.sql):
// only people this account messaged from Reachflow, de-duplicated per platform message id, unread
// unless the customer read it on the platform before the runner opened the thread.
import type { Queryable } from '../db.ts'
import type { Platform, ThreadMessage } from '../platforms/types.ts'

export interface ThreadSnapshot {
  accountId: string
  peerUsername: string
  peerId?: string | null
  threadId?: string | null
  /** The platform's unread marker as the inbox listed it before the runner opened the thread; null when unknown. */
  platformUnread: boolean | null
  /** Reading the thread opened it on the platform (which marks it read there). */
  opened: boolean
  /** Oldest first; incoming and outgoing. */
  messages: ThreadMessage[]
}

export interface StoredThread {
  threadId: string
  inserted: number
  newIncoming: number
}

/**
 * Whether reading a thread marks it read on the platform: X Chat does when its page opens, and so
 * does Instagram's thread page, which the runner reads now that the direct_v2 JSON may not answer.
 */
export function readingMarksRead(platform: Platform): boolean {
  return platform === 'x' || platform === 'instagram'
}

/** Stores what was read of one conversation; null when it is not one the inbox keeps. */
export async function storeThread(db: Queryable, snapshot: ThreadSnapshot): Promise<StoredThread | null> {
  const { rows } = await db.query<{
    stored: { thread_id: string; inserted: number; new_incoming: number } | null
  }>('select internal.record_inbox_thread($1, $2, $3, $4, $5, $6, $7) as stored', [
    snapshot.accountId,
    snapshot.peerUsername,
    snapshot.peerId ?? null,
    snapshot.threadId ?? null,
    snapshot.platformUnread,
    snapshot.opened,
    JSON.stringify(
      snapshot.messages.map((m) => ({ id: m.id, text: m.text, direction: m.direction, at: m.at })),
    ),
  ])
  const stored = rows[0]?.stored
  return stored
    ? { threadId: stored.thread_id, inserted: stored.inserted, newIncoming: stored.new_incoming }
    : null
}

/** The inbox listed these conversations read: replies read there since the runner last looked stop counting. */
export async function applyPlatformReadMarkers(
  db: Queryable,
  accountId: string,
  readThreadIds: string[],
): Promise<number> {
  if (readThreadIds.length === 0) return 0
  const { rows } = await db.query<{ marked: number }>(
    'select internal.apply_platform_read_markers($1, $2) as marked',
    [accountId, readThreadIds],
  )
  return rows[0]?.marked ?? 0
}
