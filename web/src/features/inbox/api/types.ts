/** A conversation in the Conversations inbox (public.inbox_threads with its account and campaign). */
export interface InboxThread {
  id: string
  account_id: string
  peer_username: string
  status: 'open' | 'handled'
  unread_count: number
  last_message_at: string | null
  last_message_preview: string | null
  last_message_direction: 'incoming' | 'outgoing' | null
  campaign_id: string | null
  account: { username: string; platform: string } | null
  campaign_name: string | null
}

export type InboxMessageStatus = 'received' | 'queued' | 'sending' | 'sent' | 'uncertain' | 'failed'

/** One message of a conversation (public.inbox_messages). */
export interface InboxMessage {
  id: string
  direction: 'incoming' | 'outgoing'
  body: string
  origin: 'platform' | 'reachflow'
  status: InboxMessageStatus
  error: string | null
  sent_at: string | null
  created_at: string
  read_on_platform: boolean
}

export interface InboxAccount {
  id: string
  username: string
  platform: string
  status: string
  last_synced_at: string | null
  check_requested_at: string | null
}

export interface InboxOverview {
  /** Conversations with unread replies (the tab's badge). */
  unread: number
  accounts: InboxAccount[]
}

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
