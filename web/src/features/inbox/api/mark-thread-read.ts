import { supabase } from '@/lib/supabase'
import { rpcError } from './types'

/** The customer opened the conversation: its replies are read. */
export async function markThreadRead(threadId: string): Promise<void> {
  const { error } = await supabase.rpc('mark_inbox_thread_read', { p_thread_id: threadId })
  if (error) throw rpcError(error, 'Could not mark the conversation read')
}
