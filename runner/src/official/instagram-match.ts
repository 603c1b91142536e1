// Which automation answers an Instagram event: the trigger of the event's kind, the post it watches
// (comments), and a keyword found as a whole word in the text, ignoring case (a keyword "guide"
// matches "GUIDE!" and "guide please", not "guidebook"). The oldest enabled one wins, so one
// comment or message gets one answer.

export type AutomationTrigger = 'comment_keyword' | 'dm_keyword' | 'story_mention' | 'story_reply'

export interface Automation {
  id: string
  trigger: AutomationTrigger
  media_id: string | null
  keywords: string[]
  reply_text: string
  public_reply_text: string | null
  created_at: Date
}

/** What an event says, read from its payload (events.ts in the webhook function stored it). */
export interface IncomingEvent {
  trigger: AutomationTrigger
  /** comment:<id> or message:<mid>: one answer each. */
  key: string
  personId: string
  personUsername: string | null
  text: string
  mediaId: string | null
  commentId: string | null
  occurredAt: Date
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export function hasKeyword(text: string, keywords: string[]): boolean {
  return keywords.some((keyword) => {
    const word = keyword.trim()
    if (!word) return false
    return new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(word)}($|[^\\p{L}\\p{N}_])`, 'iu').test(text)
  })
}

export function matchingAutomation(automations: Automation[], event: IncomingEvent): Automation | null {
  const candidates = automations
    .filter((a) => a.trigger === event.trigger)
    .filter((a) => a.trigger !== 'comment_keyword' || a.media_id === null || a.media_id === event.mediaId)
    .filter((a) =>
      a.keywords.length === 0
        ? a.trigger === 'story_mention' || a.trigger === 'story_reply'
        : hasKeyword(event.text, a.keywords),
    )
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
  return candidates[0] ?? null
}

type Json = Record<string, unknown>
const object = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {})
const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/** The event as automations see it; null for what no automation answers (echoes, reactions, own comments). */
export function readEvent(
  row: { event_key: string; kind: string; payload: unknown; occurred_at: Date },
  ownInstagramId: string,
): IncomingEvent | null {
  const payload = object(row.payload)
  if (row.kind === 'comment') {
    const from = object(payload.from)
    const personId = text(from.id)
    // the account's own replies under its posts come back as comments too
    if (!personId || personId === ownInstagramId) return null
    return {
      trigger: 'comment_keyword',
      key: row.event_key,
      personId,
      personUsername: text(from.username) || null,
      text: text(payload.text),
      mediaId: text(object(payload.media).id) || null,
      commentId: text(payload.id) || null,
      occurredAt: row.occurred_at,
    }
  }
  const trigger =
    row.kind === 'message'
      ? 'dm_keyword'
      : row.kind === 'story_mention' || row.kind === 'story_reply'
        ? row.kind
        : null
  if (!trigger) return null
  const personId = text(object(payload.sender).id)
  if (!personId || personId === ownInstagramId) return null
  return {
    trigger,
    key: row.event_key,
    personId,
    personUsername: null,
    text: text(object(payload.message).text),
    mediaId: null,
    commentId: null,
    occurredAt: row.occurred_at,
  }
}
