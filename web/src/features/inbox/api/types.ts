import type { Tables } from '@reachflow/db'

export type { InboxAccount, InboxOverview } from '@/lib/database/inbox'

/** A conversation in the Conversations inbox (public.inbox_threads with its account and campaign). */
export type InboxThread = Pick<
  Tables<'inbox_threads'>,
  | 'id'
  | 'account_id'
  | 'peer_username'
  | 'status'
  | 'unread_count'
  | 'last_message_at'
  | 'last_message_preview'
  | 'last_message_direction'
  | 'last_incoming_at'
  | 'campaign_id'
> & {
  /** connection: official (through the platform's API) or browser. */
  account: { username: string; platform: string; connection: string } | null
  campaign_name: string | null
}

/** One message of a conversation (public.inbox_messages). */
export type InboxMessage = Pick<
  Tables<'inbox_messages'>,
  'id' | 'direction' | 'body' | 'origin' | 'status' | 'error' | 'sent_at' | 'created_at' | 'read_on_platform'
>

export type StatusFilter = 'open' | 'handled' | 'all'

export interface InboxFilters {
  accountId: string
  campaignId: string
  status: StatusFilter
}

/** RPC errors carry the database's message, written for the customer. */
export function rpcError(error: { message?: string } | null, fallback: string): Error {
  return new Error(error?.message?.trim() || fallback)
}
