// Disconnecting an official Instagram account: its webhook subscription is removed with its own
// token (_shared/instagram-unsubscribe.ts), then the account and its sealed token are deleted as the
// customer. Instagram API with Instagram Login has no call that revokes a token: only the person
// can remove the app in Instagram's settings, which Meta then reports to the app's deauthorize
// callback.
import type { Caller } from '../_shared/auth.ts'
import { fromDbError, must } from '../_shared/db-errors.ts'
import { jsonResponse, notFound } from '../_shared/errors.ts'
import { unsubscribeOfficialInstagram } from '../_shared/instagram-unsubscribe.ts'
import { parseId } from '../_shared/validation.ts'
import type { OfficialDeps } from './deps.ts'

const NOT_FOUND = 'Account not found'

export async function disconnect(
  caller: Caller,
  rawId: string | undefined,
  deps: OfficialDeps,
): Promise<Response> {
  const id = parseId(rawId, NOT_FOUND)
  // the caller's own client: another customer's account is not found
  const found = await caller.db
    .from('social_accounts')
    .select('id, username, connection, platform:platforms(name)')
    .eq('id', id)
    .maybeSingle()
  const account = must(found, NOT_FOUND)
  if (account.connection !== 'official' || account.platform?.name !== 'instagram') throw notFound(NOT_FOUND)
  const unsubscribed = await unsubscribeOfficialInstagram(deps.service(), deps.env, deps.fetch, id)
  const deleted = await caller.db.rpc('delete_social_account', { p_account_id: id })
  if (deleted.error) throw fromDbError(deleted.error, NOT_FOUND)
  return jsonResponse({
    id,
    deleted: true,
    unsubscribed,
    message: `@${account.username} was disconnected. To remove Reachflow's access on Instagram too, open Instagram › Settings › Website permissions › Apps and websites and remove Reachflow.`,
  })
}
