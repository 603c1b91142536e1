// Meta's Instagram webhook body, turned into the events Reachflow stores: one per comment (by its
// id) and one per message (by its mid: a DM, a story mention or reply, or the echo of a message the
// account sent). Anything else is kept under a key made from its content, so a repeated delivery of
// it is recognised as well.

export type EventKind = 'comment' | 'message' | 'echo' | 'story_mention' | 'story_reply' | 'other'

export interface WebhookEvent {
  key: string
  /** entry.id: the Instagram professional account the event is for. */
  accountId: string
  field: string
  kind: EventKind
  occurredAt: string
  payload: Record<string, unknown>
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

async function contentKey(field: string, item: Json): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(item)))
  return `${field}:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** Entry times: messaging in milliseconds, changes in seconds (as Meta sends them). */
function when(value: unknown, fallback: Date): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback.toISOString()
  return new Date(value < 1e11 ? value * 1000 : value).toISOString()
}

function messageKind(message: Json): EventKind {
  if (message.is_echo === true) return 'echo'
  const attachments = Array.isArray(message.attachments) ? message.attachments : []
  if (attachments.some((a) => isObject(a) && a.type === 'story_mention')) return 'story_mention'
  if (isObject(message.reply_to) && isObject(message.reply_to.story)) return 'story_reply'
  return 'message'
}

/** The events of one delivery; null when the body is not an Instagram webhook at all. */
export async function readEvents(body: unknown, now: Date): Promise<WebhookEvent[] | null> {
  if (!isObject(body) || body.object !== 'instagram' || !Array.isArray(body.entry)) return null
  const events: WebhookEvent[] = []
  for (const entry of body.entry) {
    if (!isObject(entry) || (typeof entry.id !== 'string' && typeof entry.id !== 'number')) continue
    const accountId = String(entry.id)
    for (const change of Array.isArray(entry.changes) ? entry.changes : []) {
      if (!isObject(change) || typeof change.field !== 'string' || !isObject(change.value)) continue
      const value = change.value
      const commentId = change.field === 'comments' || change.field === 'live_comments' ? value.id : undefined
      events.push({
        key: typeof commentId === 'string' ? `comment:${commentId}` : await contentKey(change.field, change),
        accountId,
        field: change.field,
        kind: typeof commentId === 'string' ? 'comment' : 'other',
        occurredAt: when(entry.time, now),
        payload: value,
      })
    }
    for (const item of Array.isArray(entry.messaging) ? entry.messaging : []) {
      if (!isObject(item)) continue
      const message = isObject(item.message) ? item.message : null
      const mid = message && typeof message.mid === 'string' ? message.mid : null
      events.push({
        key: mid ? `message:${mid}` : await contentKey('messaging', item),
        accountId,
        field: message ? 'messages' : 'messaging',
        kind: message && mid ? messageKind(message) : 'other',
        occurredAt: when(item.timestamp ?? entry.time, now),
        payload: item,
      })
    }
  }
  return events
}
