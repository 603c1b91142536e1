// An in-process Meta sandbox for the runner's official Instagram tests (its own clock and state,
// never the shared stack's), an official account of a new customer connected to it with a real
// sealed token, and webhook events stored the way the instagram-webhook function stores them.
import { randomUUID } from 'node:crypto'
import { startMetaSandbox } from '../../../stack/sandbox/meta/app.ts'
import { json, listening } from '../../../stack/sandbox/test-helpers.ts'
import { encryptSecret, keyIdOf, keyringFromEnv } from '../../src/crypto.ts'
import { adminDb, createCustomer } from './fixtures.ts'

export const HOUR = 3_600_000
export const DAY = 24 * HOUR

export type MetaSandbox = Awaited<ReturnType<typeof listening<ReturnType<typeof startMetaSandbox>>>>

export function startSandbox(): Promise<MetaSandbox> {
  return listening(
    startMetaSandbox({
      port: 0,
      appId: '990000000000099',
      appSecret: 'event-test-secret',
      redirectUris: ['https://app.example/cb'],
    }),
  )
}

export const controlOf =
  (sandbox: MetaSandbox) =>
  async <T = Record<string, unknown>>(path: string, body?: unknown) =>
    (await json<T>(sandbox.base, `/__sandbox${path}`, body === undefined ? {} : { body })).body

export interface Connected {
  username: string
  igId: string
  userId: string
  accountId: string
  post: string
  other: string
}

/** A sandbox business account with two posts, connected as an official account of a new customer. */
export async function connectedAccount(sandbox: MetaSandbox): Promise<Connected> {
  const control = controlOf(sandbox)
  const username = `ev_${randomUUID().slice(0, 8)}`
  const account = await control<{ id: string }>('/accounts', { username, password: 'pw-123456' })
  const post = await control<{ id: string }>('/media', { account: username, caption: 'Comment GUIDE' })
  const other = await control<{ id: string }>('/media', { account: username, caption: 'Another post' })
  // the token as the consent flow would give it: the sandbox's own, with every scope
  const token = sandbox.world.newToken(account.id, 'long', [
    'instagram_business_basic',
    'instagram_business_manage_messages',
    'instagram_business_manage_comments',
  ])
  const userId = await createCustomer()
  const sealed = encryptSecret(
    JSON.stringify({ v: 1, platform: 'instagram', connection: 'official', accessToken: token.token }),
    keyringFromEnv(),
  )
  const { rows } = await adminDb().query<{ account: { id: string } }>(
    'select public.create_instagram_official_account($1, $2, $3, $4, $5, $6) as account',
    [userId, username, account.id, keyIdOf(sealed), sealed, new Date(Date.now() + 50 * DAY)],
  )
  return {
    username,
    igId: account.id,
    userId,
    accountId: rows[0]?.account.id ?? '',
    post: post.id,
    other: other.id,
  }
}

/** Stores an event the way the webhook function does; answers its id. */
export async function deliver(
  igId: string,
  event: { key: string; field: string; kind: string; occurredAt?: Date; payload: unknown },
): Promise<string> {
  await adminDb().query('select public.record_instagram_webhook_events($1)', [
    JSON.stringify([
      { accountId: igId, ...event, occurredAt: (event.occurredAt ?? new Date()).toISOString() },
    ]),
  ])
  const { rows } = await adminDb().query<{ id: string }>(
    'select id from internal.instagram_webhook_events where event_key = $1',
    [event.key],
  )
  return rows[0]?.id ?? ''
}

/** An automation of the customer's, as the dashboard would insert it. */
export async function createAutomation(
  userId: string,
  accountId: string,
  values: Record<string, unknown>,
): Promise<string> {
  const columns = {
    user_id: userId,
    account_id: accountId,
    name: 'Guide',
    reply_text: 'Here is the guide: https://example.com/g',
    ...values,
  }
  const names = Object.keys(columns)
  const { rows } = await adminDb().query<{ id: string }>(
    `insert into public.instagram_automations (${names.join(', ')}) values (${names.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    Object.values(columns),
  )
  return rows[0]?.id ?? ''
}
