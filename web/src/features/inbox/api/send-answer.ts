import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { rpcError } from './types'

/** The answer as the database accepts it (public.queue_inbox_reply). */
export const answerSchema = z
  .string()
  .trim()
  .min(1, 'Write a message first.')
  .max(2000, 'Keep the message under 2,000 characters.')

/** Queues the answer; the account's runner sends it at most once. Returns the message id. */
export async function sendAnswer(threadId: string, body: string): Promise<string> {
  const text = answerSchema.parse(body)
  const { data, error } = await supabase.rpc('queue_inbox_reply', { p_thread_id: threadId, p_body: text })
  if (error) throw rpcError(error, 'Could not queue your answer')
  return data
}
