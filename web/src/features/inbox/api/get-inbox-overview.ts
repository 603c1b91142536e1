import { supabase } from '@/lib/supabase'
import { type InboxOverview, rpcError } from './types'

/** The tab's unread badge and each account's last inbox check (rpc/inbox_overview). */
export async function getInboxOverview(): Promise<InboxOverview> {
  const { data, error } = await supabase.rpc('inbox_overview')
  if (error) throw rpcError(error, 'Could not load your inbox')
  const overview = (data ?? {}) as Partial<InboxOverview>
  return { unread: Number(overview.unread ?? 0), accounts: overview.accounts ?? [] }
}
