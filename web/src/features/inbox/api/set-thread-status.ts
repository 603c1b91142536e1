import { supabase } from '@/lib/supabase'
import { rpcError } from './types'

/** Marks a conversation handled, or open again. */
export async function setThreadStatus(threadId: string, status: 'open' | 'handled'): Promise<void> {
  const { error } = await supabase.rpc('set_inbox_thread_status', { p_thread_id: threadId, p_status: status })
  if (error) throw rpcError(error, 'Could not change the conversation')
}
