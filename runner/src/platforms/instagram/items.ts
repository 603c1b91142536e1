// Instagram Direct JSON (inbox, pending inbox, thread) read into the adapters' shapes.
// Pure: no browser or Node dependency.
import type { InboxConversation, ThreadMessage } from '../types.ts'

type Json = Record<string, unknown>
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {})
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : [])

/** Instagram timestamps are microseconds since the epoch, as strings. */
export function igTime(value: unknown): string | null {
  const micros = Number(value)
  return Number.isFinite(micros) && micros > 0 ? new Date(Math.floor(micros / 1000)).toISOString() : null
}

export function igMessages(thread: unknown): ThreadMessage[] {
  return list(obj(thread).items)
    .map((item) => ({
      id: String(item.item_id ?? ''),
      text: typeof item.text === 'string' ? item.text : '',
      direction: item.is_sent_by_viewer === true ? ('outgoing' as const) : ('incoming' as const),
      status: 'sent',
      at: igTime(item.timestamp),
    }))
    .reverse() // the API lists newest first
}

export function igConversation(thread: unknown, request: boolean): InboxConversation {
  const t = obj(thread)
  const peer = obj(list(t.users)[0])
  const last = igMessages(t).at(-1)
  return {
    threadId: String(t.thread_id ?? ''),
    peer: { id: peer.pk === undefined ? null : String(peer.pk), username: String(peer.username ?? '') },
    unread: Number(t.read_state ?? 0) > 0,
    request,
    lastMessage: { text: last?.text ?? '', direction: last?.direction ?? null, at: last?.at ?? null },
  }
}

export function igThreads(body: unknown): Json[] {
  return list(obj(obj(body).inbox).threads)
}
