// Proxy logins at rest: a login stored in plain text before the proxy-safety migration
// (internal.legacy_proxy_credentials) is sealed into the account's credentials the first time the
// runner reads them, and the plain copy is deleted; the runner reads it as the runner role.
import { afterAll, describe, expect, it } from 'vitest'
import { decryptSecret, keyringFromEnv } from '../src/crypto.ts'
import { createDb } from '../src/db.ts'
import { loadSecrets } from '../src/sessions/credentials.ts'
import { adminDb, closeAdminDb, createCustomer, createXAccount, env } from './helpers/fixtures.ts'

const runnerDb = createDb(env('RUNNER_DATABASE_URL'), 2)
afterAll(async () => {
  await runnerDb.end()
  await closeAdminDb()
})

describe('legacy proxy logins', () => {
  it('are sealed into the credentials on first read and the plain copy deleted', async () => {
    const userId = await createCustomer()
    const accountId = await createXAccount(userId, {
      id: 'legacy',
      username: `legacy_${Date.now().toString(36)}`,
      cookies: [
        { name: 'auth_token', value: 'a'.repeat(40), domain: '.x.com' },
        { name: 'ct0', value: 'b'.repeat(64), domain: '.x.com' },
      ],
      cookieHeader: '',
      passcode: '1234',
    } as Parameters<typeof createXAccount>[1])
    await adminDb().query(`update public.social_accounts set proxy_url = '203.0.113.40:3128' where id = $1`, [
      accountId,
    ])
    await adminDb().query(
      `insert into internal.legacy_proxy_credentials (account_id, username, password) values ($1, 'olduser', 'oldpass')`,
      [accountId],
    )
    const keyring = keyringFromEnv()
    const secrets = await loadSecrets(runnerDb, accountId, keyring)
    expect(secrets.credentials.proxy).toEqual({ username: 'olduser', password: 'oldpass' })

    const { rows } = await adminDb().query<{ ciphertext: string; legacy: number }>(
      `select c.ciphertext, (select count(*)::int from internal.legacy_proxy_credentials l where l.account_id = c.account_id) as legacy
         from public.social_account_credentials c where c.account_id = $1`,
      [accountId],
    )
    expect(rows[0]?.legacy).toBe(0)
    expect(rows[0]?.ciphertext).not.toContain('oldpass')
    expect(JSON.parse(decryptSecret(rows[0]?.ciphertext ?? '', keyring)).proxy).toEqual({
      username: 'olduser',
      password: 'oldpass',
    })
    // the second read finds it sealed
    expect((await loadSecrets(runnerDb, accountId, keyring)).credentials.proxy).toEqual({
      username: 'olduser',
      password: 'oldpass',
    })
  })
})
