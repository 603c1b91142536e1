import { inboxCheckSchema } from '@/lib/database/inbox'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'
import { rpcError } from './types'

/** "Check now": queues an inbox sync per active account (or the one given), once a minute each. */
export async function requestInboxCheck(accountId?: string): Promise<{ queued: number; limited: number }> {
  const { data, error } = await supabase.rpc(
    'request_inbox_check',
    accountId ? { p_account_id: accountId } : {},
  )
  if (error) throw rpcError(error, 'Could not check the inbox')
  const { queued, limited } = parseJson(inboxCheckSchema, data, 'The inbox check')
  return { queued, limited }
}
