import type { InboxMessage, ThreadNote } from '../api/types'

export type TimelineItem = { kind: 'message'; message: InboxMessage } | { kind: 'note'; note: ThreadNote }

const messageAt = (m: InboxMessage) => Date.parse(m.sent_at ?? m.created_at)

/** Messages (already in conversation order) with the team's notes placed where they were written. */
export function timeline(messages: readonly InboxMessage[], notes: readonly ThreadNote[]): TimelineItem[] {
  const items: TimelineItem[] = []
  let next = 0
  for (const message of messages) {
    while (next < notes.length && Date.parse(notes[next]?.created_at ?? '') < messageAt(message)) {
      items.push({ kind: 'note', note: notes[next] as ThreadNote })
      next += 1
    }
    items.push({ kind: 'message', message })
  }
  for (const note of notes.slice(next)) items.push({ kind: 'note', note })
  return items
}
