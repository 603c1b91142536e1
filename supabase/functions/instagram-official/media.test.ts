// The automations' post picker, in-process against the test stack and its Meta sandbox: the
// account's posts and reels newest first (no stories, no token in the answer), another customer's
// account not found, a browser account refused, and a token Instagram revoked asking to reconnect.
import assert from 'node:assert/strict'
import { connectedOfficialAccount, metaControl } from '../_shared/meta-sandbox-test.ts'
import { functionRequest, jsonOf, newCustomer, stackEnv } from '../_shared/test-stack.ts'
import { createOfficialHandler } from './app.ts'
import { defaultDeps } from './deps.ts'
import { MEDIA_ERRORS, type PickerMedia } from './media.ts'

const handler = createOfficialHandler(defaultDeps(stackEnv()))

const connected = () => connectedOfficialAccount('ig-media')

const mediaOf = (accountId: string, token: string) =>
  handler(functionRequest('instagram-official', `/accounts/${accountId}/media`, { token }))

Deno.test("the picker lists the account's posts and reels, newest first, without its token", async () => {
  const { customer, ig, accountId } = await connected()
  const post = await metaControl<{ id: string }>('/media', { account: ig.username, caption: 'Comment GUIDE' })
  await metaControl('/media', { account: ig.username, caption: 'a story', media_product_type: 'STORY' })
  const reel = await metaControl<{ id: string }>('/media', {
    account: ig.username,
    caption: 'Reel: comment PRICE',
    media_product_type: 'REELS',
  })
  const response = await mediaOf(accountId, customer.token)
  assert.equal(response.status, 200)
  const text = await response.text()
  const { media } = JSON.parse(text) as { media: PickerMedia[] }
  assert.deepEqual(
    media.map((m) => ({ id: m.id, caption: m.caption, kind: m.kind })),
    [
      { id: reel.id, caption: 'Reel: comment PRICE', kind: 'reel' },
      { id: post.id, caption: 'Comment GUIDE', kind: 'post' },
    ],
  )
  assert.match(media[0]?.permalink ?? '', /^https:\/\/www\.instagram\.com\//)
  assert.doesNotMatch(text, /IGAA/)
  // Instagram was asked with the account's own token for its own media
  const calls = await metaControl<{ path: string }[]>(`/calls?account=${ig.username}`)
  assert.ok(
    calls.some((c) => /\/me\/media\?/.test(c.path)),
    JSON.stringify(calls.map((c) => c.path)),
  )
})

Deno.test("another customer's account is not found, nor is a signed-out request answered", async () => {
  const { accountId } = await connected()
  const stranger = await newCustomer('ig-media-stranger')
  const response = await mediaOf(accountId, stranger.token)
  assert.equal(response.status, 404)
  assert.equal((await jsonOf<{ error: string }>(response)).error, 'Account not found')
  const anonymous = await handler(functionRequest('instagram-official', `/accounts/${accountId}/media`))
  assert.equal(anonymous.status, 401)
  await anonymous.body?.cancel()
})

Deno.test('a token Instagram no longer accepts asks the customer to connect again', async () => {
  const { customer, ig, accountId } = await connected()
  await metaControl('/tokens/revoke', { account: ig.username })
  const response = await mediaOf(accountId, customer.token)
  assert.equal(response.status, 409)
  assert.equal((await jsonOf<{ error: string }>(response)).error, MEDIA_ERRORS.reconnect)
})
