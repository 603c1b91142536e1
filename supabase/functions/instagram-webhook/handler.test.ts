// The Instagram webhook in-process against the test stack, and end to end from the Meta sandbox
// through the gateway: the subscription challenge, signatures refused (missing, wrong secret, body
// changed), each event stored once however often it is delivered with one instagram.event job, the
// kinds of messaging events, and a sandbox comment delivered twice stored once.
import assert from 'node:assert/strict'
import { authorizeUrl, exchangeCode, instagramConfig, setSubscription } from '../_shared/instagram-api.ts'
import { consentInSandbox, metaControl, sandboxInstagramAccount } from '../_shared/meta-sandbox-test.ts'
import { functionRequest, jsonOf, sql, stackEnv } from '../_shared/test-stack.ts'
import { createWebhookHandler, defaultDeps } from './handler.ts'
import { hmacSha256 } from './signing.ts'

const env = stackEnv()
const secret = env('INSTAGRAM_APP_SECRET') ?? ''
const handler = createWebhookHandler(defaultDeps(env))

async function sign(body: string, key = secret): Promise<string> {
  const digest = await hmacSha256(key, new TextEncoder().encode(body))
  return `sha256=${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

function post(body: string, signature: string | null) {
  return handler(
    functionRequest('instagram-webhook', '', {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'x-hub-signature-256': signature } : {}),
      },
    }),
  )
}

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`

function commentBody(accountId: string, commentId: string, text = 'GUIDE please') {
  return JSON.stringify({
    object: 'instagram',
    entry: [
      {
        id: accountId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'comments',
            value: {
              from: { id: '2001', username: 'ana' },
              media: { id: '1790', media_product_type: 'FEED' },
              id: commentId,
              text,
            },
          },
        ],
      },
    ],
  })
}

const eventsFor = (accountId: string) =>
  sql<{ event_key: string; kind: string; deliveries: number; job_id: string | null }>(
    'select event_key, kind, deliveries, job_id::text from internal.instagram_webhook_events where instagram_account_id = $1 order by event_key',
    [accountId],
  )

Deno.test('the subscription check answers the challenge only for the verify token', async () => {
  const token = env('INSTAGRAM_WEBHOOK_VERIFY_TOKEN') ?? ''
  const ok = await handler(
    functionRequest(
      'instagram-webhook',
      `?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`,
    ),
  )
  assert.equal(ok.status, 200)
  assert.equal(await ok.text(), '1158201444')
  for (const query of [
    `?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    `?hub.mode=unsubscribe&hub.verify_token=${token}&hub.challenge=1`,
  ]) {
    const refused = await handler(functionRequest('instagram-webhook', query))
    assert.equal(refused.status, 403)
    await refused.body?.cancel()
  }
})

Deno.test('a delivery without a valid signature is refused and stores nothing', async () => {
  const accountId = `1784${unique()}`
  const body = commentBody(accountId, `178${unique()}`)
  const attempts = [
    await post(body, null),
    await post(body, await sign(body, 'another-app-secret')),
    await post(body.replace('GUIDE', 'GUIDX'), await sign(body)),
    await post(body, 'sha256=abc'),
  ]
  for (const response of attempts) {
    assert.equal(response.status, 401)
    assert.equal((await jsonOf(response)).error, 'Invalid signature')
  }
  assert.deepEqual(await eventsFor(accountId), [])
})

Deno.test('an event delivered twice is stored once with one job', async () => {
  const accountId = `1784${unique()}`
  const commentId = `178${unique()}`
  const body = commentBody(accountId, commentId)
  const first = await post(body, await sign(body))
  assert.equal(first.status, 200)
  assert.deepEqual(await jsonOf(first), { received: true, stored: 1, repeated: 0 })
  const again = await post(body, await sign(body))
  assert.deepEqual(await jsonOf(again), { received: true, stored: 0, repeated: 1 })
  const rows = await eventsFor(accountId)
  assert.equal(rows.length, 1)
  assert.deepEqual(
    { key: rows[0]?.event_key, kind: rows[0]?.kind, deliveries: rows[0]?.deliveries },
    {
      key: `comment:${commentId}`,
      kind: 'comment',
      deliveries: 2,
    },
  )
  const jobs = await sql<{ name: string; event: string }>(
    `select name, data ->> 'eventId' as event from pgboss.job where name = 'instagram.event' and id = $1`,
    [rows[0]?.job_id],
  )
  assert.equal(jobs.length, 1)
})

Deno.test('the same event id on two accounts is two events, each with its job', async () => {
  // Meta's ids are only unique per account as far as we may rely on: one customer's event must
  // never be dropped as a repeat of another customer's
  const [mine, theirs] = [`1784${unique()}`, `1784${unique()}`]
  const commentId = `178${unique()}`
  for (const accountId of [mine, theirs]) {
    const body = commentBody(accountId, commentId)
    assert.deepEqual(await jsonOf(await post(body, await sign(body))), {
      received: true,
      stored: 1,
      repeated: 0,
    })
  }
  for (const accountId of [mine, theirs]) {
    const rows = await eventsFor(accountId)
    assert.deepEqual(
      rows.map((r) => [r.event_key, r.deliveries, r.job_id !== null]),
      [[`comment:${commentId}`, 1, true]],
      accountId,
    )
  }
})

Deno.test('messaging events are told apart: a DM, an echo, a story mention and a story reply', async () => {
  const accountId = `1784${unique()}`
  const run = unique()
  const item = (mid: string, message: Record<string, unknown>) => ({
    sender: { id: '2002' },
    recipient: { id: accountId },
    timestamp: Date.now(),
    message: { mid: `${mid}-${run}`, ...message },
  })
  const body = JSON.stringify({
    object: 'instagram',
    entry: [
      {
        id: accountId,
        time: Date.now(),
        messaging: [
          item('m1', { text: 'PRICE?' }),
          item('m2', { text: 'our answer', is_echo: true }),
          item('m3', {
            attachments: [{ type: 'story_mention', payload: { url: 'https://lookaside.fbsbx.com/x' } }],
          }),
          item('m4', {
            text: 'love it',
            reply_to: { story: { url: 'https://lookaside.fbsbx.com/y', id: '1' } },
          }),
        ],
      },
    ],
  })
  const response = await post(body, await sign(body))
  assert.deepEqual(await jsonOf(response), { received: true, stored: 4, repeated: 0 })
  assert.deepEqual(
    (await eventsFor(accountId)).map((r) => [r.event_key, r.kind]),
    [
      [`message:m1-${run}`, 'message'],
      [`message:m2-${run}`, 'echo'],
      [`message:m3-${run}`, 'story_mention'],
      [`message:m4-${run}`, 'story_reply'],
    ],
  )
})

Deno.test('a comment in the sandbox reaches the function through the gateway, and its redelivery is stored once', async () => {
  const config = instagramConfig(env)
  const ig = await sandboxInstagramAccount()
  const back = await consentInSandbox(authorizeUrl(config, 'webhook-test'), ig.username, ig.password)
  const token = await exchangeCode(config, back.searchParams.get('code') ?? '', fetch, new Date())
  await setSubscription(config, token.accessToken, true, fetch)
  const post = await metaControl<{ id: string }>('/media', {
    account: ig.username,
    caption: 'Comment LINK for the guide',
  })
  const { delivery_id: deliveryId } = await metaControl<{ delivery_id: string | null }>('/comments', {
    account: ig.username,
    media_id: post.id,
    from: 'ben',
    text: 'LINK please',
  })
  assert.ok(deliveryId, 'the sandbox delivers: the callback is verified and the account subscribed')
  for (let i = 0; i < 100 && (await eventsFor(ig.id)).length === 0; i++)
    await new Promise((r) => setTimeout(r, 100))
  const redelivered = await metaControl<{ status: number }>(`/deliveries/${deliveryId}/redeliver`, {})
  assert.equal(redelivered.status, 200)
  const rows = await eventsFor(ig.id)
  assert.equal(rows.length, 1)
  assert.equal(rows[0]?.kind, 'comment')
  assert.equal(rows[0]?.deliveries, 2)
})
