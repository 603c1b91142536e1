// instagram.token: renews an official Instagram account's long-lived token before it runs out
// (the scheduler queues it when 30 days are left). Instagram's refusal of the token for good (code
// 190: expired, or the person removed the app) turns the account to error and tells its owner:
// only connecting again helps. Anything else (Instagram down, a timeout) fails the job, which
// pg-boss retries, and the next hour queues it again.
import { MetaApiError, refreshToken } from '@reachflow/instagram-api'
import { decryptSecret, encryptSecret, type Keyring, keyIdOf } from '../crypto.ts'
import { type Db, dbNow } from '../db.ts'

/** A token is renewed once it has less than this left (the scheduler's rule, checked again here). */
export const REFRESH_WHEN_LEFT_MS = 30 * 86_400_000

export interface TokenJobContext {
  db: Db
  config: { keyring: Keyring; instagramGraphUrl: string }
  fetch?: typeof fetch
}

interface SealedToken {
  accessToken: string
  expiresAt: string
}

export type TokenOutcome = 'refreshed' | 'not_due' | 'gone' | 'invalid'

export function tokenRefusedReason(username: string, detail: string): string {
  return `Instagram no longer accepts Reachflow's access to @${username} (${detail}). Connect the account again from Accounts to keep its automations running.`
}

export async function instagramToken(
  ctx: TokenJobContext,
  data: { accountId: string },
): Promise<TokenOutcome> {
  const { rows } = await ctx.db.query<{
    username: string
    status: string
    ciphertext: string
    token_expires_at: Date | null
  }>(
    `select a.username, a.status, c.ciphertext, c.token_expires_at
       from public.social_accounts a
       join public.social_account_credentials c on c.account_id = a.id
      where a.id = $1 and a.connection = 'official'`,
    [data.accountId],
  )
  const row = rows[0]
  if (!row || row.status === 'error') return 'gone'
  const now = await dbNow(ctx.db)
  if (row.token_expires_at && row.token_expires_at.getTime() - now.getTime() > REFRESH_WHEN_LEFT_MS)
    return 'not_due'
  const sealed = JSON.parse(decryptSecret(row.ciphertext, ctx.config.keyring)) as SealedToken &
    Record<string, unknown>
  let fresh: { accessToken: string; expiresAt: Date }
  try {
    fresh = await refreshToken(
      { graphUrl: ctx.config.instagramGraphUrl },
      sealed.accessToken,
      ctx.fetch ?? fetch,
      now,
    )
  } catch (error) {
    if (!(error instanceof MetaApiError && error.tokenInvalid)) throw error
    await ctx.db.query('select internal.instagram_token_failed($1, $2)', [
      data.accountId,
      tokenRefusedReason(row.username, error.message),
    ])
    return 'invalid'
  }
  const ciphertext = encryptSecret(
    JSON.stringify({ ...sealed, accessToken: fresh.accessToken, expiresAt: fresh.expiresAt.toISOString() }),
    ctx.config.keyring,
  )
  await ctx.db.query('select internal.store_instagram_token($1, $2, $3, $4)', [
    data.accountId,
    keyIdOf(ciphertext),
    ciphertext,
    fresh.expiresAt,
  ])
  return 'refreshed'
}
