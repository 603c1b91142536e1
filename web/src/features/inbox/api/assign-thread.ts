import { supabase } from '@/lib/supabase'
import { rpcError } from './types'

/** Assigns the conversation to a member of the workspace, or unassigns it (null). */
export async function assignThread(threadId: string, memberId: string | null): Promise<void> {
  const { error } = await supabase.rpc('assign_thread', { p_thread_id: threadId, p_member: memberId })
  if (error) throw rpcError(error, 'Could not assign the conversation')
}
