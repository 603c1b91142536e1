// Meta's app callbacks: end to end from the Meta sandbox through the gateway (a person removing
// Reachflow in Instagram's settings turns the official account to error and tells its owner; a data
// deletion request deletes the account, its automations and its delivered events, and answers a
// status URL and a code the public page reads), and in-process the signed_request refusals.
import assert from 'node:assert/strict'
import { connectedOfficialAccount, metaControl } from '../_shared/meta-sandbox-test.ts'
import { functionRequest, jsonOf, sql, stackEnv } from '../_shared/test-stack.ts'
import { STATUS_LOOKUPS, STATUS_WINDOW_SECONDS } from './app-callbacks.ts'
import { createWebhookHandler, defaultDeps } from './handler.ts'
import { hmacSha256 } from './signing.ts'

const env = stackEnv()
const secret = env('INSTAGRAM_APP_SECRET') ?? ''
const webhook = createWebhookHandler(defaultDeps(env))

const connected = () => connectedOfficialAccount('ig-callbacks')

const base64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

async function signed(payload: Record<string, unknown>, key = secret): Promise<string> {
  const body = base64Url(new TextEncoder().encode(JSON.stringify(payload)))
  return `${base64Url(await hmacSha256(key, new TextEncoder().encode(body)))}.${body}`
}

const callback = (path: string, signedRequest: string | null) =>
  webhook(
    functionRequest('instagram-webhook', path, {
      method: 'POST',
      rawBody:
        signedRequest === null ? '' : new URLSearchParams({ signed_request: signedRequest }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  )

Deno.test('removing Reachflow in Instagram’s settings turns the official account to error and tells its owner', async () => {
  const { customer, ig, accountId } = await connected()
  const { deauthorize } = await metaControl<{ deauthorize: { status: number; body: { accounts: number } } }>(
    '/tokens/revoke',
    { account: ig.username },
  )
  assert.equal(deauthorize.status, 200, JSON.stringify(deauthorize))
  assert.equal(deauthorize.body.accounts, 1)
  const { data: account } = await customer.db
    .from('social_accounts')
    .select('status, flag_reason')
    .eq('id', accountId)
    .single()
  assert.equal(account?.status, 'error')
  assert.match(account?.flag_reason ?? '', /access to @shop_\w+ was removed on Instagram/)
  const { data: notes } = await customer.db.from('notifications').select('title, message')
  assert.deepEqual(
    notes?.map((n) => n.title),
    ['Instagram connection lost'],
  )
  // told once: Meta calling again changes nothing
  const again = await callback('/deauthorize', await signed({ algorithm: 'HMAC-SHA256', user_id: ig.id }))
  assert.deepEqual(await jsonOf(again), { received: true, accounts: 0 })
})

Deno.test('a data deletion request deletes the account, its automations and its events, and answers a code the status page reads', async () => {
  const { customer, ig, accountId } = await connected()
  const created = await customer.db.from('instagram_automations').insert({
    account_id: accountId,
    name: 'Guide',
    trigger: 'dm_keyword',
    keywords: ['guide'],
    reply_text: 'Here it is',
  })
  assert.equal(created.error, null)
  await metaControl('/messages', { account: ig.username, from: 'ana_data', text: 'hello there' })
  const events = () =>
    sql<{ n: number }>(
      'select count(*)::int as n from internal.instagram_webhook_events where instagram_account_id = $1',
      [ig.id],
    ).then((rows) => rows[0]?.n)
  for (let i = 0; i < 50 && (await events()) === 0; i++) await new Promise((r) => setTimeout(r, 100))
  assert.equal(await events(), 1)

  const answer = await metaControl<{ status: number; body: { url: string; confirmation_code: string } }>(
    '/data-deletion',
    { account: ig.username },
  )
  assert.equal(answer.status, 200, JSON.stringify(answer))
  const { url, confirmation_code: code } = answer.body
  assert.match(code, /^[0-9A-F]{32}$/) // 128 random bits
  assert.equal(url, `${env('SITE_URL')}/data-deletion?code=${code}`)
  const { data: accounts } = await customer.db.from('social_accounts').select('id')
  assert.deepEqual(accounts, [])
  const { data: automations } = await customer.db.from('instagram_automations').select('id')
  assert.deepEqual(automations, [])
  assert.equal(await events(), 0)
  const { data: notes } = await customer.db.from('notifications').select('title')
  assert.deepEqual(
    notes?.map((n) => n.title),
    ['Instagram account removed'],
  )

  // the public page's lookup, as anyone holding the code (through the gateway, no JWT)
  const lookup = (c: string) =>
    fetch(`${env('SUPABASE_URL')}/functions/v1/instagram-webhook/data-deletion?code=${c}`, {
      headers: { apikey: env('SUPABASE_ANON_KEY') ?? '' },
    })
  const status = await jsonOf<{ status: string; accounts_deleted: number }>(await lookup(code.toLowerCase()))
  assert.equal(status.status, 'completed')
  assert.equal(status.accounts_deleted, 1)
  const unknown = await lookup('FFFFFFFFFFFFFFFF')
  assert.equal(unknown.status, 404)
  assert.equal(
    (await jsonOf<{ error: string }>(unknown)).error,
    'No deletion request has this confirmation code.',
  )
  const malformed = await lookup('nope')
  assert.equal(malformed.status, 400)
  await malformed.body?.cancel()
})

Deno.test('the status page answers each address a limited number of lookups, then 429 with when to come back', async () => {
  // a documentation-range IPv6 address of its own per test run, behind whatever the client sent
  const address = (id = crypto.randomUUID()) => `198.51.100.7, 2001:db8::${id.slice(0, 4)}:${id.slice(4, 8)}`
  const guesser = address()
  const lookup = (forwardedFor: string) =>
    webhook(
      functionRequest('instagram-webhook', `/data-deletion?code=${crypto.randomUUID().replaceAll('-', '')}`, {
        headers: { 'x-forwarded-for': forwardedFor },
      }),
    )
  for (let i = 0; i < STATUS_LOOKUPS; i++) {
    const miss = await lookup(guesser)
    assert.equal(miss.status, 404, `lookup ${i + 1}`)
    await miss.body?.cancel()
  }
  const refused = await lookup(guesser)
  assert.equal(refused.status, 429)
  const retryAfter = Number(refused.headers.get('retry-after'))
  assert.ok(retryAfter > 0 && retryAfter <= STATUS_WINDOW_SECONDS, `Retry-After ${retryAfter}`)
  assert.equal(
    (await jsonOf<{ error: string }>(refused)).error,
    'Too many lookups from your address. Try again in a few minutes.',
  )
  // what the client put before the proxy's entry does not make it someone else
  const spoofed = await lookup(`10.0.0.1, ${guesser.split(', ').at(-1)}`)
  assert.equal(spoofed.status, 429)
  await spoofed.body?.cancel()
  // another address is not held back by it
  const other = await lookup(address())
  assert.equal(other.status, 404)
  await other.body?.cancel()
})

Deno.test('a signed_request with a wrong secret, a changed payload, or none is refused, and does nothing', async () => {
  const { customer, ig, accountId } = await connected()
  const good = await signed({ algorithm: 'HMAC-SHA256', issued_at: 1, user_id: ig.id })
  const [signature, payload] = good.split('.')
  const changed = `${signature}.${base64Url(new TextEncoder().encode(JSON.stringify({ algorithm: 'HMAC-SHA256', user_id: '1' })))}`
  for (const path of ['/deauthorize', '/data-deletion']) {
    for (const request of [
      await signed({ algorithm: 'HMAC-SHA256', user_id: ig.id }, 'not-the-secret'),
      changed,
      `${signature}`,
      `.${payload}`,
      null,
    ]) {
      const response = await callback(path, request)
      assert.equal(response.status, 401, `${path} ${request}`)
      await response.body?.cancel()
    }
  }
  const unsigned = await callback('/deauthorize', await signed({ algorithm: 'none', user_id: ig.id }))
  assert.equal(unsigned.status, 400)
  await unsigned.body?.cancel()
  const { data } = await customer.db.from('social_accounts').select('status').eq('id', accountId).single()
  assert.equal(data?.status, 'active')
})
