import { inboxOverviewSchema } from '@/lib/database/inbox'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'
import { type InboxOverview, rpcError } from './types'

/** The tab's unread badge and each account's last inbox check (rpc/inbox_overview). */
export async function getInboxOverview(): Promise<InboxOverview> {
  const { data, error } = await supabase.rpc('inbox_overview')
  if (error) throw rpcError(error, 'Could not load your inbox')
  return parseJson(inboxOverviewSchema, data, 'Your inbox')
}
