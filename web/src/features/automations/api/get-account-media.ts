import type { InstagramMediaList } from '@reachflow/domain'
import { serverErrorText } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import type { AccountMedia } from './types'

export const MEDIA_FAILED = 'Could not load your posts. Please try again.'

/** GET {instagram-official}/accounts/:id/media: the account's latest posts and reels, read by the server with the account's token. */
export async function getAccountMedia(accountId: string): Promise<AccountMedia[]> {
  let response: Awaited<ReturnType<typeof supabase.functions.invoke<Partial<InstagramMediaList>>>>
  try {
    response = await supabase.functions.invoke<Partial<InstagramMediaList>>(
      `instagram-official/accounts/${encodeURIComponent(accountId)}/media`,
      { method: 'GET' },
    )
  } catch {
    throw new Error(MEDIA_FAILED)
  }
  if (response.error) throw new Error((await serverErrorText(response.error)) ?? MEDIA_FAILED)
  return response.data?.media ?? []
}
