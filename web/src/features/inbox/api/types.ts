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
  | 'assigned_to'
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

/** One internal note of a conversation (public.inbox_thread_notes): only the team reads it. */
export type ThreadNote = Pick<
  Tables<'inbox_thread_notes'>,
  'id' | 'author_id' | 'body' | 'created_at' | 'updated_at'
>

export type { WorkspacePerson } from '@/lib/workspace-people'

export type StatusFilter = 'open' | 'handled' | 'all'

/** Whose conversations: the caller's, nobody's, or everyone's. */
export type AssigneeFilter = 'me' | 'unassigned' | 'all'

export interface InboxFilters {
  accountId: string
  campaignId: string
  status: StatusFilter
  assignee: AssigneeFilter
}

/** RPC errors carry the database's message, written for the customer. */
export function rpcError(error: { message?: string } | null, fallback: string): Error {
  return new Error(error?.message?.trim() || fallback)
}
