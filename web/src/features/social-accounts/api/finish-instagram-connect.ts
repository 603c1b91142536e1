import type { InstagramConnected } from '@reachflow/domain'
import { browserKey } from '@/lib/browser-key'
import { serverErrorText } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

export const INSTAGRAM_FINISH_FAILED = 'Could not finish the Instagram connection. Please try again.'

/** Instagram's answer as its redirect carried it: code and state, or error and state. */
export interface InstagramAnswer {
  state: string
  code?: string
  error?: string
}

/**
 * POST {instagram-official}/finish: hands Instagram's answer and this browser's key over with the
 * customer's session; the account is added (its username back) or the server's reason thrown.
 */
export async function finishInstagramConnect(answer: InstagramAnswer): Promise<InstagramConnected> {
  let response: Awaited<ReturnType<typeof supabase.functions.invoke<Partial<InstagramConnected>>>>
  try {
    response = await supabase.functions.invoke<Partial<InstagramConnected>>('instagram-official/finish', {
      method: 'POST',
      body: { ...answer, browserKey: browserKey() },
    })
  } catch {
    throw new Error(INSTAGRAM_FINISH_FAILED)
  }
  if (response.error) throw new Error((await serverErrorText(response.error)) ?? INSTAGRAM_FINISH_FAILED)
  if (!response.data?.username) throw new Error(INSTAGRAM_FINISH_FAILED)
  return { username: response.data.username }
}
