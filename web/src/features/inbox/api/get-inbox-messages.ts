import { supabase } from '@/lib/supabase'
import type { InboxMessage } from './types'

/** The whole conversation, oldest first. */
export async function getInboxMessages(threadId: string): Promise<InboxMessage[]> {
  const { data, error } = await supabase
    .from('inbox_messages')
    .select('id, direction, body, origin, status, error, sent_at, created_at, read_on_platform')
    .eq('thread_id', threadId)
    .order('created_at', { ascending: true })
    .limit(1000)
  if (error) throw new Error(`Could not load the conversation: ${error.message}`)
  return data.sort(
    (a, b) =>
      Date.parse(a.sent_at ?? a.created_at) - Date.parse(b.sent_at ?? b.created_at) ||
      Date.parse(a.created_at) - Date.parse(b.created_at),
  )
}
