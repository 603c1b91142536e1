// Before an official Instagram account is deleted (Disconnect, or Delete on the accounts list), its
// webhook subscription is removed with its own token, so Meta stops sending its comments and
// messages. A token that no longer works cannot unsubscribe, and need not: events for an account
// Reachflow no longer has are ignored. Instagram API with Instagram Login has no call that revokes
// the token itself.
import type { SupabaseClient } from './clients.ts'
import { decryptSecret, keyringFromEnv } from './crypto.ts'
import type { Env } from './env.ts'
import { graphUrlOf, MetaApiError, setSubscription } from './instagram-api.ts'

/** Whether the subscription was removed. */
export async function unsubscribeOfficialInstagram(
  service: SupabaseClient,
  env: Env,
  fetcher: typeof fetch,
  accountId: string,
): Promise<boolean> {
  const sealed = await service
    .from('social_account_credentials')
    .select('ciphertext')
    .eq('account_id', accountId)
    .maybeSingle()
  if (!sealed.data) return false
  const { accessToken } = JSON.parse(
    await decryptSecret(sealed.data.ciphertext, await keyringFromEnv(env)),
  ) as {
    accessToken?: string
  }
  if (!accessToken) return false
  try {
    await setSubscription({ graphUrl: graphUrlOf(env) }, accessToken, false, fetcher)
    return true
  } catch (error) {
    if (error instanceof MetaApiError) return false
    throw error
  }
}
