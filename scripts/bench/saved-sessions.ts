// Every bench account as a connected account finds the runner: its sealed session saved by the full
// sign-in of its account test, with who that sign-in saw and when (at a random time of the last
// 20 clock hours, as a fleet that has been running has them). A runner that starts then restores
// sessions (runner/src/sessions/restore.ts) rather than signing 500 accounts in from nothing;
// BENCH_SAVED_SESSIONS=0 leaves them out (a fleet that was never signed in).
import type pg from 'pg'
import { decryptSecret, encryptSecret, keyringFromEnv } from '../../runner/src/crypto.ts'
import { parseXCookies } from '../../runner/src/platforms/x/cookies.ts'
import type { SavedSession } from '../../runner/src/sessions/credentials.ts'

const DAY_MS = 86_400_000

export async function sealConnectedSessions(
  db: pg.Pool,
  accountIds: string[],
  clockNow: number,
): Promise<void> {
  const keyring = keyringFromEnv()
  for (const accountId of accountIds) {
    const { rows } = await db.query<{ ciphertext: string; username: string }>(
      `select c.ciphertext, a.username from public.social_account_credentials c
         join public.social_accounts a on a.id = c.account_id where c.account_id = $1`,
      [accountId],
    )
    const row = rows[0]
    if (!row) throw new Error(`No credentials for ${accountId}`)
    const parsed = parseXCookies(JSON.parse(decryptSecret(row.ciphertext, keyring)).cookies)
    if (!parsed.ok || !parsed.value.userId) throw new Error(`The cookies of ${accountId} hold no session`)
    const saved: SavedSession = {
      v: 1,
      cookies: parsed.value.cookies,
      savedAt: new Date().toISOString(),
      seen: {
        identity: { id: parsed.value.userId, username: row.username, name: row.username },
        checkedAt: clockNow - Math.random() * DAY_MS * (20 / 24),
      },
    }
    await db.query(
      'update public.social_account_credentials set session_ciphertext = $2 where account_id = $1',
      [accountId, encryptSecret(JSON.stringify(saved), keyring)],
    )
  }
}
