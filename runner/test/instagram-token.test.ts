// instagram.token against the real database (as the runner's role) and an in-process Meta sandbox
// whose clock the test moves: a token with less than 30 days left is renewed and sealed again, one
// with more is left alone, and a token Instagram refuses turns the account to error with its
// owner told once.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMetaSandbox } from '../../stack/sandbox/meta/app.ts'
import { json, listening } from '../../stack/sandbox/test-helpers.ts'
import { decryptSecret, encryptSecret, keyIdOf, keyringFromEnv } from '../src/crypto.ts'
import { createDb, type Db } from '../src/db.ts'
import { instagramToken } from '../src/jobs/instagram-token.ts'
import {
  accountRow,
  adminDb,
  closeAdminDb,
  createCustomer,
  env,
  notificationsOf,
} from './helpers/fixtures.ts'

const APP = {
  appId: '990000000000088',
  appSecret: 'runner-test-secret',
  redirectUri: 'https://app.example/cb',
}
const DAY = 86_400_000
let sandbox: Awaited<ReturnType<typeof listening<ReturnType<typeof startMetaSandbox>>>>
let db: Db
const keyring = keyringFromEnv()

beforeAll(async () => {
  sandbox = await listening(
    startMetaSandbox({
      port: 0,
      appId: APP.appId,
      appSecret: APP.appSecret,
      redirectUris: [APP.redirectUri],
    }),
  )
  db = createDb(env('RUNNER_DATABASE_URL'), 2)
})

afterAll(async () => {
  sandbox.stop()
  await db.end()
  await closeAdminDb()
})

/** A long-lived token of a new sandbox business account, through the consent screens. */
async function longLivedToken(username: string): Promise<{ token: string; igId: string }> {
  const { body: account } = await json<{ id: string }>(sandbox.base, '/__sandbox/accounts', {
    body: { username, password: 'pw-123456' },
  })
  const params = {
    client_id: APP.appId,
    redirect_uri: APP.redirectUri,
    response_type: 'code',
    scope: 'instagram_business_basic,instagram_business_manage_messages,instagram_business_manage_comments',
  }
  const login = await fetch(`${sandbox.base}/oauth/authorize/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...params, username, password: 'pw-123456' }),
    redirect: 'manual',
  })
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? ''
  const consent = await fetch(`${sandbox.base}/oauth/authorize/consent`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...params, decision: 'allow' }),
    redirect: 'manual',
  })
  const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? ''
  const short = await json<{ data: { access_token: string }[] }>(sandbox.base, '/oauth/access_token', {
    form: {
      client_id: APP.appId,
      client_secret: APP.appSecret,
      grant_type: 'authorization_code',
      redirect_uri: APP.redirectUri,
      code,
    },
  })
  const long = await json<{ access_token: string }>(
    sandbox.base,
    `/access_token?grant_type=ig_exchange_token&client_secret=${APP.appSecret}&access_token=${short.body.data[0]?.access_token}`,
  )
  return { token: long.body.access_token, igId: account.id }
}

/** An official account as the connect callback creates it, its token expiring in `daysLeft`. */
async function officialAccount(
  userId: string,
  token: string,
  igId: string,
  daysLeft: number,
): Promise<string> {
  const expiresAt = new Date(Date.now() + daysLeft * DAY)
  const sealed = encryptSecret(
    JSON.stringify({
      v: 1,
      platform: 'instagram',
      connection: 'official',
      accessToken: token,
      expiresAt,
      permissions: [],
      instagramUserId: igId,
    }),
    keyring,
  )
  const { rows } = await adminDb().query<{ account: { id: string } }>(
    'select public.create_instagram_official_account($1, $2, $3, $4, $5, $6) as account',
    [userId, `ig_${randomUUID().slice(0, 8)}`, igId, keyIdOf(sealed), sealed, expiresAt],
  )
  return rows[0]?.account.id ?? ''
}

const ctx = () => ({ db, config: { keyring, instagramGraphUrl: sandbox.base } })

describe('instagram.token', () => {
  it('renews a token with less than 30 days left and leaves a fresher one alone', async () => {
    const userId = await createCustomer()
    const { token, igId } = await longLivedToken(`tok_${randomUUID().slice(0, 8)}`)
    const due = await officialAccount(userId, token, igId, 29)
    const other = await longLivedToken(`tok_${randomUUID().slice(0, 8)}`)
    const fresh = await officialAccount(await createCustomer(), other.token, other.igId, 45)
    // the hourly schedule queues the one with less than 30 days left
    await adminDb().query('select internal.enqueue_instagram_token_refreshes()')
    const { rows: jobs } = await adminDb().query<{ account: string }>(
      `select data ->> 'accountId' as account from pgboss.job where name = 'instagram.token' and data ->> 'accountId' = any($1)`,
      [[due, fresh]],
    )
    expect(jobs.map((j) => j.account)).toEqual([due])
    // the sandbox's token is a day old by its clock: Instagram refreshes only tokens 24 hours old
    await json(sandbox.base, '/__sandbox/clock', { body: { advance_ms: DAY + 60_000 } })
    expect(await instagramToken(ctx(), { accountId: due })).toBe('refreshed')
    const { rows } = await adminDb().query<{ ciphertext: string; token_expires_at: Date }>(
      'select ciphertext, token_expires_at from public.social_account_credentials where account_id = $1',
      [due],
    )
    const opened = JSON.parse(decryptSecret(rows[0]?.ciphertext ?? '', keyring)) as { accessToken: string }
    expect(opened.accessToken).not.toBe(token)
    const me = await json<{ user_id: string }>(
      sandbox.base,
      `/me?fields=user_id&access_token=${opened.accessToken}`,
    )
    expect(me.body.user_id).toBe(igId)
    expect((rows[0]?.token_expires_at.getTime() ?? 0) - Date.now()).toBeGreaterThan(59 * DAY)

    expect(await instagramToken(ctx(), { accountId: fresh })).toBe('not_due')
  })

  it('turns the account to error and tells its owner once when Instagram refuses the token', async () => {
    const userId = await createCustomer()
    const username = `rev_${randomUUID().slice(0, 8)}`
    const { token, igId } = await longLivedToken(username)
    const accountId = await officialAccount(userId, token, igId, 10)
    await json(sandbox.base, '/__sandbox/tokens/revoke', { body: { account: username } })
    expect(await instagramToken(ctx(), { accountId })).toBe('invalid')
    const row = await accountRow(accountId)
    expect(row.status).toBe('error')
    expect(row.flag_reason).toMatch(
      /^Instagram no longer accepts Reachflow's access to @ig_\w+ \(Invalid OAuth access token/,
    )
    expect(await instagramToken(ctx(), { accountId })).toBe('gone')
    const notices = (await notificationsOf(userId)).filter((n) => n.title === 'Instagram connection lost')
    expect(notices).toHaveLength(1)
    expect(notices[0]?.metadata).toMatchObject({ accountId, status: 'error' })
  })
})
