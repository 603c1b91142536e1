// An official Instagram account's conversations in the Conversations inbox. Meta's webhook brings
// every message (a DM, a story reply or mention, the echo of what the account sent); each is stored
// once by its mid in the person's thread (internal.record_instagram_message), and the DM an
// automation sends is stored under the same key as its echo, so it shows once. Webhooks carry only
// the person's Instagram-scoped id: the username comes from Instagram's User Profile API, read
// once per thread with the account's sealed token.
import { getUserProfile, MetaApiError } from '@reachflow/instagram-api'
import type { Keyring } from '../crypto.ts'
import type { Queryable } from '../db.ts'
import { officialAccessToken } from '../platforms/instagram-api/channel.ts'

/** Story mentions carry no text: what the inbox shows instead. */
export const STORY_MENTION_BODY = 'Mentioned you in their story'

export interface InboxMessage {
  personId: string
  direction: 'incoming' | 'outgoing'
  mid: string
  body: string
  sentAt: Date
}

export interface InboxDeps {
  db: Queryable
  keyring: Keyring
  graphUrl: string
  fetch: typeof fetch
}

export interface OfficialAccount {
  id: string
  ciphertext: string
}

type Json = Record<string, unknown>
const object = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {})
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

/** What an attachment-only message says in the inbox. */
function attachmentBody(message: Json): string {
  const first = object(Array.isArray(message.attachments) ? message.attachments[0] : undefined)
  switch (first.type) {
    case 'image':
      return 'Sent a photo'
    case 'video':
      return 'Sent a video'
    case 'audio':
      return 'Sent a voice message'
    case 'share':
    case 'ig_reel':
    case 'reel':
      return 'Shared a post'
    default:
      return 'Sent an attachment'
  }
}

/** The inbox's message in a stored webhook event; null for what is not a message (reactions, reads, comments). */
export function inboxMessageOf(
  row: { kind: string; payload: unknown; occurred_at: Date },
  ownInstagramId: string,
): InboxMessage | null {
  if (!['message', 'story_reply', 'story_mention', 'echo'].includes(row.kind)) return null
  const payload = object(row.payload)
  const message = object(payload.message)
  const mid = text(message.mid)
  const outgoing = row.kind === 'echo'
  // an echo goes from the account to the person; anything else comes from the person
  const personId = text(object(outgoing ? payload.recipient : payload.sender).id)
  if (!mid || !personId || personId === ownInstagramId) return null
  const body =
    row.kind === 'story_mention'
      ? STORY_MENTION_BODY
      : text(message.text) || (row.kind === 'story_reply' ? 'Replied to your story' : attachmentBody(message))
  return { personId, direction: outgoing ? 'outgoing' : 'incoming', mid, body, sentAt: row.occurred_at }
}

/**
 * The person's username: the thread's when it already has one, else Instagram's User Profile API
 * (answered only once the person has written to the account); null when Instagram does not say.
 */
async function usernameOf(
  deps: InboxDeps,
  account: OfficialAccount,
  personId: string,
): Promise<string | null> {
  const { rows } = await deps.db.query<{ peer_username: string }>(
    'select peer_username from public.inbox_threads where account_id = $1 and peer_platform_id = $2',
    [account.id, personId],
  )
  const known = rows[0]?.peer_username
  if (known && known !== personId) return known
  const accessToken = officialAccessToken(account.ciphertext, deps.keyring)
  try {
    const profile = await getUserProfile({ graphUrl: deps.graphUrl }, accessToken, personId, deps.fetch)
    return profile.username ?? null
  } catch (error) {
    // no consent yet (the account wrote first), blocked, or Instagram unreachable: the thread
    // shows the id until a later message brings the name
    if (error instanceof MetaApiError) return null
    throw error
  }
}

/** Stores one message in the person's thread; answers whether it was new. */
export async function recordInstagramMessage(
  deps: InboxDeps,
  account: OfficialAccount,
  message: InboxMessage,
  username?: string | null,
): Promise<boolean> {
  const name = username || (await usernameOf(deps, account, message.personId))
  const { rows } = await deps.db.query<{ stored: { inserted: boolean } | null }>(
    'select internal.record_instagram_message($1, $2, $3, $4, $5, $6, $7) as stored',
    [account.id, message.personId, name, message.direction, message.mid, message.body, message.sentAt],
  )
  return rows[0]?.stored?.inserted ?? false
}
