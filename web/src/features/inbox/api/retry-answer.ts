import { supabase } from '@/lib/supabase'
import { rpcError } from './types'

/** Queues a failed answer (nothing went out) again. */
export async function retryAnswer(messageId: string): Promise<void> {
  const { error } = await supabase.rpc('retry_inbox_reply', { p_message_id: messageId })
  if (error) throw rpcError(error, 'Could not send it again')
}
