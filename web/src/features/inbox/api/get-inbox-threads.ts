import { supabase } from '@/lib/supabase'
import type { InboxFilters, InboxThread } from './types'

/** How many conversations the list shows (newest first). */
export const INBOX_LIST_LIMIT = 100

/**
 * Conversations with a reply, newest first, filtered by account, campaign, status and assignee
 * (`me` is the signed-in member's id, for "Assigned to me"): the first
 * INBOX_LIST_LIMIT, or the rows `range` names (the export reads them all, page by page).
 */
export async function getInboxThreads(
  filters: InboxFilters,
  me: string | undefined,
  range: { from: number; to: number } = { from: 0, to: INBOX_LIST_LIMIT - 1 },
): Promise<InboxThread[]> {
  let query = supabase
    .from('inbox_threads')
    .select(
      'id, account_id, peer_username, status, unread_count, last_message_at, last_message_preview, last_message_direction, last_incoming_at, campaign_id, assigned_to, social_account:social_accounts(username, connection, platform:platforms(name)), campaign:campaigns(name)',
    )
    .order('last_message_at', { ascending: false, nullsFirst: false })
    .order('id')
    .range(range.from, range.to)
  if (filters.accountId) query = query.eq('account_id', filters.accountId)
  if (filters.campaignId) query = query.eq('campaign_id', filters.campaignId)
  if (filters.status !== 'all') query = query.eq('status', filters.status)
  if (filters.assignee === 'unassigned') query = query.is('assigned_to', null)
  // nobody signed in matches no conversation rather than all of them
  if (filters.assignee === 'me') query = query.eq('assigned_to', me ?? '00000000-0000-0000-0000-000000000000')
  const { data, error } = await query
  if (error) throw new Error(`Could not load your conversations: ${error.message}`)
  return data.map(({ social_account, campaign, ...thread }) => ({
    ...thread,
    account: social_account
      ? {
          username: social_account.username,
          platform: social_account.platform?.name ?? '',
          connection: social_account.connection,
        }
      : null,
    campaign_name: campaign?.name ?? null,
  }))
}
