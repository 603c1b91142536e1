import type { InstagramConnectStarted } from '@reachflow/domain'
import { browserKey } from '@/lib/browser-key'
import { serverErrorText } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

export const INSTAGRAM_CONNECT_FAILED = 'Could not start the Instagram connection. Please try again.'

/**
 * POST {instagram-official}/connect: Instagram's consent URL for the signed-in customer (one-use,
 * 10 minutes, finished only in this browser).
 */
export async function startInstagramConnect(): Promise<string> {
  let response: Awaited<ReturnType<typeof supabase.functions.invoke<Partial<InstagramConnectStarted>>>>
  try {
    response = await supabase.functions.invoke<Partial<InstagramConnectStarted>>(
      'instagram-official/connect',
      {
        method: 'POST',
        body: { browserKey: browserKey() },
      },
    )
  } catch {
    throw new Error(INSTAGRAM_CONNECT_FAILED)
  }
  if (response.error) throw new Error((await serverErrorText(response.error)) ?? INSTAGRAM_CONNECT_FAILED)
  if (!response.data?.url) throw new Error(INSTAGRAM_CONNECT_FAILED)
  return response.data.url
}
