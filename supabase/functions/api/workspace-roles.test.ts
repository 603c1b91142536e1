// The role matrix at the product API, in-process against the test stack: a viewer and an agent of a
// workspace are refused every route that writes its accounts, scraping, lead lists, campaigns, AI
// drafts, billing and members with the workspace's 403 words, and nothing they asked for happens (the account routes write with the service role, so a missing check
// there would let a viewer add, change or delete accounts); their reads see the active workspace only.
import assert from 'node:assert/strict'
import {
  callerOf,
  givePlan,
  memberOf,
  newCustomer,
  serviceDb,
  stackEnv,
  type TestCustomer,
} from '../_shared/test-stack.ts'
import { NOT_A_MEMBER, ROLE_REFUSED } from '../_shared/workspace-role.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

const env = stackEnv()
const api = createApiHandler(defaultDeps(env))
type Json = Record<string, unknown>
const call = callerOf(api, 'api')
const member = (owner: TestCustomer, role: 'editor' | 'agent' | 'viewer') => memberOf(owner, role, env)

/** An owner whose workspace has an X account, a pending scraping campaign and a lead list. */
async function stockedWorkspace() {
  const owner = await newCustomer('ws-owner')
  await givePlan(owner, 5)
  const account = await call(owner, 'POST', '/social-accounts', {
    platform: 'twitter',
    username: 'client_brand',
    authData: { cookies: { auth_token: 'a'.repeat(40), ct0: 'b'.repeat(40) } },
  })
  assert.equal(account.status, 201, JSON.stringify(account.body))
  const accountId = String(account.body.id)
  const scraping = await call(owner, 'POST', '/lead-scraping/campaigns', {
    name: 'Founders',
    account_id: accountId,
    sources: { type: 'keyword', value: 'saas' },
  })
  assert.equal(scraping.status, 201, JSON.stringify(scraping.body))
  const list = await call(owner, 'POST', '/lead-lists', { name: 'Warm' })
  assert.equal(list.status, 201, JSON.stringify(list.body))
  return { owner, accountId, scrapingId: String(scraping.body.id), listId: String(list.body.id) }
}

/** The workspace's accounts, scraping campaigns and lead lists as they stand, in a fixed order. */
async function workspaceRows(workspaceId: string) {
  const db = serviceDb(env)
  const [accounts, scraping, lists] = await Promise.all([
    db.from('social_accounts').select('id, username, status').eq('workspace_id', workspaceId).order('id'),
    db.from('scraping_campaigns').select('id, status').eq('workspace_id', workspaceId).order('id'),
    db.from('lead_lists').select('id, name').eq('workspace_id', workspaceId).order('id'),
  ])
  for (const read of [accounts, scraping, lists]) assert.equal(read.error, null)
  return { accounts: accounts.data, scraping: scraping.data, lists: lists.data }
}

/** Every route that writes, one or more per family, as the method, path and a body that would pass. */
function writeRoutes(ids: { accountId: string; scrapingId: string; listId: string; campaignId: string }) {
  const cookies = { auth_token: 'c'.repeat(40), ct0: 'd'.repeat(40) }
  return [
    ['POST', '/social-accounts', { platform: 'twitter', username: 'intruder', authData: { cookies } }],
    ['POST', '/social-accounts/validate-cookies', { platform: 'twitter', cookies }],
    ['POST', '/social-accounts/x-official/start', { clientId: 'abc', clientSecret: 'def' }],
    ['POST', '/social-accounts/x-official/callback', { state: 'x', code: 'y' }],
    ['POST', `/social-accounts/${ids.accountId}/test`, undefined],
    ['PATCH', `/social-accounts/${ids.accountId}`, { username: 'renamed_by_viewer' }],
    ['DELETE', `/social-accounts/${ids.accountId}`, undefined],
    [
      'POST',
      '/lead-scraping/campaigns',
      { name: 'Mine', account_id: ids.accountId, sources: { type: 'keyword', value: 'x' } },
    ],
    ['POST', `/scraping-campaigns/${ids.scrapingId}/start`, undefined],
    ['POST', `/lead-scraping/campaigns/${ids.scrapingId}/pause`, undefined],
    ['DELETE', `/scraping-campaigns/${ids.scrapingId}`, undefined],
    [
      'POST',
      '/v2/campaigns',
      {
        name: 'Mine',
        account_id: ids.accountId,
        scraping_campaign_id: ids.scrapingId,
        sequences: { messages: ['Hi'] },
      },
    ],
    ['PUT', `/v2/campaigns/${ids.campaignId}`, { name: 'Renamed' }],
    ['POST', `/v2/campaigns/${ids.campaignId}/launch`, undefined],
    ['POST', `/v2/campaigns/${ids.campaignId}/pause`, undefined],
    ['DELETE', `/v2/campaigns/${ids.campaignId}`, undefined],
    ['POST', '/lead-lists', { name: 'Mine' }],
    ['DELETE', `/lead-lists/${ids.listId}`, undefined],
    ['POST', '/ai/draft-messages', { goal: 'Book a call' }],
    ['POST', '/ai/preview-message', { campaignId: ids.campaignId, username: 'amy' }],
    [
      'POST',
      '/api/create-checkout-session',
      { planType: 'growth', billingPeriod: 'monthly', accountCount: 2 },
    ],
    ['POST', '/billing/portal', undefined],
    ['POST', '/billing/cancel', undefined],
    ['POST', '/billing/change-plan', { accounts: 3 }],
  ] as const
}

for (const role of ['viewer', 'agent'] as const) {
  Deno.test(`a ${role} is refused every write route with the workspace's words, and nothing changes`, async () => {
    const { owner, accountId, scrapingId, listId } = await stockedWorkspace()
    const person = await member(owner, role)
    const before = await workspaceRows(owner.id)
    const campaignId = crypto.randomUUID()
    for (const [method, path, body] of writeRoutes({ accountId, scrapingId, listId, campaignId })) {
      assert.deepEqual(
        await call(person, method, path, body),
        { status: 403, body: { error: ROLE_REFUSED } },
        `${method} ${path}`,
      )
    }
    const invited = await call(person, 'POST', `/workspaces/${owner.id}/invitations`, {
      email: `friend-${crypto.randomUUID().slice(0, 8)}@functions.test`,
      role: 'viewer',
    })
    assert.deepEqual(invited, { status: 403, body: { error: ROLE_REFUSED } }, 'inviting a member')

    assert.deepEqual(await workspaceRows(owner.id), before, 'no account, scraping campaign or list changed')
    const { data: accounts } = await serviceDb(env)
      .from('social_accounts')
      .select('username')
      .eq('workspace_id', owner.id)
    assert.deepEqual(accounts, [{ username: 'client_brand' }])
    const { data: ownLists } = await serviceDb(env).from('lead_lists').select('id').eq('user_id', person.id)
    assert.deepEqual(ownLists, [], 'nothing was written to their own workspace either')
  })
}

Deno.test("reads answer the active workspace's rows by role, and an editor still writes", async () => {
  const { owner, accountId, scrapingId } = await stockedWorkspace()
  const viewer = await member(owner, 'viewer')
  const agent = await member(owner, 'agent')
  const editor = await member(owner, 'editor')

  const seenBy = async (who: TestCustomer, path: string) => {
    const answer = await call(who, 'GET', path)
    assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`)
    return (answer.body as unknown as Json[]).map((row) => row.id)
  }
  assert.deepEqual(await seenBy(viewer, '/social-accounts'), [accountId])
  assert.deepEqual(await seenBy(viewer, '/scraping-campaigns'), [scrapingId])
  assert.deepEqual(await seenBy(agent, '/scraping-campaigns'), [], 'an agent reads the inbox only')
  assert.deepEqual(await seenBy(agent, '/lead-lists'), [])

  const stranger = await newCustomer('ws-stranger')
  assert.deepEqual(await seenBy(stranger, '/social-accounts'), [], "another workspace's accounts stay unseen")
  const invited = await call(stranger, 'POST', `/workspaces/${owner.id}/invitations`, {
    email: `friend-${crypto.randomUUID().slice(0, 8)}@functions.test`,
    role: 'viewer',
  })
  assert.deepEqual(invited, { status: 403, body: { error: NOT_A_MEMBER } })

  const started = await call(editor, 'POST', `/scraping-campaigns/${scrapingId}/start`)
  assert.equal(started.status, 200, JSON.stringify(started.body))
  const listed = await call(editor, 'POST', '/lead-lists', { name: 'Editor list' })
  assert.equal(listed.status, 201, JSON.stringify(listed.body))
})
