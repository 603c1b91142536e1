// Scraping campaigns, DM campaigns, lead lists and credits in-process against the test stack: the
// scraping life cycle with its jobs, a DM campaign built from a completed scraping campaign's valid
// leads, launch / pause / delete keeping the queue consistent, the product's validation texts, and
// another customer's ids answering 404.
import assert from 'node:assert/strict'
import {
  functionRequest,
  givePlan,
  jobsFor,
  jsonOf,
  newCustomer,
  serviceDb,
  sql,
  stackEnv,
  type TestCustomer,
} from '../_shared/test-stack.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

const handle = createApiHandler(defaultDeps(stackEnv()))
type Json = Record<string, unknown>

async function call(customer: TestCustomer, method: string, path: string, body?: unknown) {
  const response = await handle(functionRequest('api', path, { token: customer.token, method, body }))
  return { status: response.status, body: await jsonOf<Json & { error?: string }>(response) }
}

/** A customer with an active X account (as the runner's test would leave it). */
async function customerWithAccount(tag: string) {
  const customer = await newCustomer(tag)
  await givePlan(customer, 5)
  const cookies = { auth_token: 'a'.repeat(40), ct0: 'b'.repeat(40) }
  const account = await call(customer, 'POST', '/social-accounts', {
    platform: 'twitter',
    username: `${tag}_x`,
    authData: { cookies },
  })
  assert.equal(account.status, 201, JSON.stringify(account.body))
  await serviceDb()
    .from('social_accounts')
    .update({ status: 'active', warmup_phase: 5 })
    .eq('id', String(account.body.id))
  return { customer, accountId: String(account.body.id) }
}

/** What the runner does: collect leads for a running scraping campaign (one filtered out). */
async function collectLeads(scrapingId: string, usernames: string[]) {
  const { error } = await serviceDb()
    .from('scraping_campaign_leads')
    .insert(
      usernames.map((username, i) => ({
        scraping_campaign_id: scrapingId,
        username,
        is_filtered: i === usernames.length - 1,
        filter_reason: i === usernames.length - 1 ? 'Below min followers' : null,
        source_type: 'keyword',
        source_value: 'saas',
        profile_data: { full_name: username.toUpperCase() },
      })),
    )
  assert.equal(error, null)
}

Deno.test('a scraping campaign: created pending, started with a run queued, paused with none left, completed by its leads', async () => {
  const { customer, accountId } = await customerWithAccount('scr')
  const invalid = await call(customer, 'POST', '/lead-scraping/campaigns', {
    name: 'Bad',
    account_id: accountId,
    sources: { type: 'keyword', value: 'saas' },
    target_count: 10_001,
  })
  assert.deepEqual(invalid, {
    status: 400,
    body: { error: 'Target count must be a whole number from 1 to 10,000', issues: invalid.body.issues },
  })
  const noValue = await call(customer, 'POST', '/scraping-campaigns', {
    name: 'X',
    account_id: accountId,
    sources: { type: 'hashtag', value: ' # ' },
  })
  assert.equal(noValue.status, 400)

  const created = await call(customer, 'POST', '/lead-scraping/campaigns', {
    name: 'SaaS founders',
    account_id: accountId,
    sources: { type: 'hashtag', value: '#buildinpublic' },
    target_count: 2,
    filters: { min_followers: 100, max_followers: null },
  })
  assert.equal(created.status, 201, JSON.stringify(created.body))
  assert.equal(created.body.status, 'pending')
  assert.deepEqual(created.body.sources, [{ type: 'hashtag', value: 'buildinpublic' }])
  assert.equal(created.body.criteria, '#buildinpublic')
  assert.equal((created.body.filters as Json).min_followers, 100)
  assert.equal((created.body.lead_list as Json).name, 'SaaS founders Leads')
  const id = created.body.id as string

  const started = await call(customer, 'POST', `/scraping-campaigns/${id}/start`)
  assert.equal(started.body.status, 'running')
  assert.deepEqual(
    (await jobsFor('scrapingCampaignId', id)).map((j) => [j.name, j.state]),
    [['scrape.run', 'created']],
  )
  const paused = await call(customer, 'POST', `/scraping-campaigns/${id}/pause`)
  assert.equal(paused.body.status, 'paused')
  assert.equal(paused.body.message, 'Scraping campaign paused!')
  assert.deepEqual(
    (await jobsFor('scrapingCampaignId', id)).map((j) => j.state),
    ['cancelled'],
  )
  await call(customer, 'POST', `/lead-scraping/campaigns/${id}/start`)
  await collectLeads(id, ['ann', 'ben', 'zed'])
  const detail = await call(customer, 'GET', `/scraping-campaigns/${id}`)
  assert.equal(detail.body.status, 'completed', 'two valid leads reach the target of 2')
  assert.equal(detail.body.scraped, 3)
  assert.equal(detail.body.verified, 2)
  assert.equal((detail.body.stats as Json).successRate, 66.7)
  const again = await call(customer, 'POST', `/scraping-campaigns/${id}/start`)
  assert.deepEqual(again, { status: 409, body: { error: 'This scraping campaign has already completed' } })

  const list = await call(customer, 'GET', '/lead-scraping/campaigns')
  assert.deepEqual(
    (list.body as unknown as Json[]).map((c) => c.id),
    [id],
  )
})

Deno.test('a DM campaign from a completed scraping campaign: valid leads copied, launched, paused, deleted', async () => {
  const { customer, accountId } = await customerWithAccount('dm')
  const source = await call(customer, 'POST', '/scraping-campaigns', {
    name: 'Source',
    account_id: accountId,
    sources: [{ type: 'followers', value: '@saasfounder' }],
    target_count: 3,
  })
  const sourceId = source.body.id as string
  const body = {
    name: 'Founders outreach',
    account_id: accountId,
    platform: 'twitter',
    scraping_campaign_id: sourceId,
    sequences: {
      messages: ['Hi {username}!', '', ''],
      followUpEnabled: true,
      followUpMessages: ['Bump'],
      followUpDays: 2,
    },
    schedule: {
      timezone: 'Europe/Berlin',
      timeFrom: '08:00',
      timeTo: '18:00',
      activeDays: ['monday', 'wednesday'],
    },
    run_immediately: false,
    target_count: 40,
  }
  const early = await call(customer, 'POST', '/v2/campaigns', body)
  assert.equal(early.status, 422, 'a pending scraping campaign is not a lead source yet')
  assert.match(early.body.error ?? '', /^No completed scraping campaigns/)

  await call(customer, 'POST', `/scraping-campaigns/${sourceId}/start`)
  await collectLeads(sourceId, ['amy', 'bob', 'cal', 'dee'])
  for (const [change, error] of [
    [{ sequences: { messages: ['', ' ', ''] } }, 'Write at least one initial message'],
    [{ schedule: { timezone: 'Mars/Olympus' } }, 'Unknown time zone "Mars/Olympus"'],
    [{ daily_message_limit: 501 }, 'Daily message limit must be a whole number from 1 to 500'],
    [
      { sequences: { messages: ['Hi'], followUpDays: 31 } },
      'Follow-up days must be a whole number from 1 to 30',
    ],
    [{ platform: 'instagram' }, 'The chosen account is not a instagram account'],
  ] as const) {
    const refused = await call(customer, 'POST', '/v2/campaigns', { ...body, ...change })
    assert.equal(refused.status, 400, JSON.stringify(change))
    assert.equal(refused.body.error, error)
  }

  const created = await call(customer, 'POST', '/v2/campaigns', body)
  assert.equal(created.status, 201, JSON.stringify(created.body))
  assert.equal(created.body.status, 'draft')
  assert.equal(created.body.leads, 3, 'the three valid leads are copied, the filtered one is not')
  assert.equal(created.body.daily_message_limit, 40, 'the wizard sends the daily limit as target_count')
  assert.equal(created.body.message_template, 'Hi {username}!')
  assert.equal((created.body.social_account as Json).id, accountId)
  const id = created.body.id as string

  const renamed = await call(customer, 'PUT', `/v2/campaigns/${id}`, {
    name: 'Renamed',
    daily_message_limit: 30,
  })
  assert.equal(renamed.body.name, 'Renamed')
  assert.equal(renamed.body.daily_message_limit, 30)
  const winnerRule = await call(customer, 'PUT', `/v2/campaigns/${id}`, { winner_after_sends: 200 })
  assert.equal(winnerRule.body.winner_after_sends, 200, 'the winner rule can be set on an existing campaign')
  const winnerOff = await call(customer, 'PUT', `/v2/campaigns/${id}`, { winner_after_sends: null })
  assert.equal(winnerOff.body.winner_after_sends, null, 'and turned off')
  assert.deepEqual(
    (renamed.body.schedule as Json).activeDays,
    ['monday', 'wednesday'],
    'an update keeps what it does not name',
  )

  const launched = await call(customer, 'POST', `/v2/campaigns/${id}/launch`)
  assert.equal(launched.body.status, 'running')
  const locked = await call(customer, 'PUT', `/v2/campaigns/${id}`, { scraping_campaign_id: sourceId })
  assert.deepEqual(locked, {
    status: 409,
    body: { error: 'The lead source can only change while the campaign is a draft' },
  })

  // A tick as the scheduler (pg_cron, every minute) queues one; pausing must cancel it.
  await sql(
    "select internal.enqueue_job('campaign.tick', jsonb_build_object('campaignId', $1::text, 'accountId', $2::text), 'campaign:' || $1)",
    [id, accountId],
  )
  const paused = await call(customer, 'POST', `/v2/campaigns/${id}/pause`)
  assert.equal(paused.body.status, 'paused')
  assert.deepEqual(
    (await jobsFor('campaignId', id)).map((j) => j.state),
    ['cancelled'],
    'no tick waits for a paused campaign',
  )
  const resumed = await call(customer, 'POST', `/v2/campaigns/${id}/launch`)
  assert.equal(resumed.body.status, 'running')

  const detail = await call(customer, 'GET', `/v2/campaigns/${id}`)
  assert.equal((detail.body.stats as Json).totalLeads, 3)
  const list = await call(customer, 'GET', '/v2/campaigns')
  assert.deepEqual(
    (list.body as unknown as Json[]).map((c) => [c.id, c.leads, c.sent]),
    [[id, 3, 0]],
  )

  const sourceInUse = await call(customer, 'DELETE', `/scraping-campaigns/${sourceId}`)
  assert.equal(sourceInUse.status, 409)
  const deleted = await call(customer, 'DELETE', `/v2/campaigns/${id}`)
  assert.equal(deleted.status, 200)
  const waiting = (await jobsFor('campaignId', id)).filter(
    (j) => j.state === 'created' || j.state === 'retry',
  )
  assert.deepEqual(waiting, [], 'no job waits for a deleted campaign')
  assert.equal((await call(customer, 'GET', `/v2/campaigns/${id}`)).status, 404)
  assert.equal((await call(customer, 'DELETE', `/scraping-campaigns/${sourceId}`)).status, 200)
})

Deno.test('run_immediately starts the campaign at once', async () => {
  const { customer, accountId } = await customerWithAccount('now')
  const source = await call(customer, 'POST', '/scraping-campaigns', {
    name: 'Src',
    account_id: accountId,
    sources: { type: 'keyword', value: 'fintech' },
    target_count: 1,
  })
  await call(customer, 'POST', `/scraping-campaigns/${source.body.id}/start`)
  await collectLeads(source.body.id as string, ['solo', 'dropped'])
  const created = await call(customer, 'POST', '/v2/campaigns', {
    name: 'Now',
    account_id: accountId,
    scraping_campaign_id: source.body.id,
    sequences: { messages: ['Hello'] },
    run_immediately: true,
  })
  assert.equal(created.status, 201)
  assert.equal(created.body.status, 'running')
  assert.equal(created.body.daily_message_limit, 50, 'default daily limit')
  assert.ok(created.body.started_at)
})

Deno.test('lead lists and credits', async () => {
  const { customer, accountId } = await customerWithAccount('lists')
  const source = await call(customer, 'POST', '/scraping-campaigns', {
    name: 'People',
    account_id: accountId,
    sources: { type: 'keyword', value: 'design' },
    target_count: 10,
  })
  await call(customer, 'POST', `/scraping-campaigns/${source.body.id}/start`)
  await collectLeads(source.body.id as string, ['lia', 'max', 'ned'])
  const lists = await call(customer, 'GET', '/lead-lists')
  assert.deepEqual(
    (lists.body as unknown as Json[]).map((l) => [l.name, l.lead_count]),
    [['People Leads', 2]],
  )

  const { data: leads } = await customer.db
    .from('scraping_campaign_leads')
    .select('id, username')
    .order('username')
  const created = await call(customer, 'POST', '/lead-lists', {
    name: 'Hot',
    lead_ids: [leads?.[0]?.id, leads?.[1]?.id],
  })
  assert.equal(created.status, 201)
  assert.equal(created.body.lead_count, 2)
  const detail = await call(customer, 'GET', `/lead-lists/${created.body.id}`)
  assert.deepEqual(((detail.body.leads as Json[]) ?? []).map((l) => l.username).sort(), ['lia', 'max'])
  assert.equal(
    (await call(customer, 'POST', '/lead-lists', { name: '  ' })).body.error,
    'List name is required',
  )

  const stranger = await newCustomer('stranger')
  const foreign = await call(stranger, 'POST', '/lead-lists', { name: 'Steal', lead_ids: [leads?.[0]?.id] })
  assert.deepEqual(foreign, {
    status: 400,
    body: { error: 'Some of these leads do not exist or are not yours' },
  })
  for (const [method, path] of [
    ['GET', `/lead-lists/${created.body.id}`],
    ['DELETE', `/lead-lists/${created.body.id}`],
    ['GET', `/scraping-campaigns/${source.body.id}`],
    ['POST', `/scraping-campaigns/${source.body.id}/pause`],
    ['POST', `/scraping-campaigns/${source.body.id}/start`],
    ['DELETE', `/scraping-campaigns/${source.body.id}`],
  ]) {
    assert.equal((await call(stranger, method, path)).status, 404, `${method} ${path} as another customer`)
  }
  assert.equal((await call(customer, 'DELETE', `/lead-lists/${created.body.id}`)).status, 200)
  assert.equal((await call(customer, 'GET', `/lead-lists/${created.body.id}`)).status, 404)

  const credits = await call(customer, 'GET', '/user/credits')
  assert.deepEqual(credits.body.plan, {
    type: 'growth',
    status: 'active',
    accountLimit: 5,
    accountsUsed: 1,
    canAddAccount: true,
    dmsPerDay: 2250,
  })
  assert.deepEqual(credits.body.today, { sent: 0, dailyCap: 50, remaining: 50 })
  const [account] = credits.body.accounts as Json[]
  assert.deepEqual(account?.caps, { account: 50, warmup: null, platform: 450, campaigns: null })
  const strangerCredits = await call(stranger, 'GET', '/user/credits')
  assert.deepEqual(strangerCredits.body.plan, {
    type: 'free',
    status: 'none',
    accountLimit: 1,
    accountsUsed: 0,
    canAddAccount: true,
    dmsPerDay: 450,
  })
})

Deno.test("another customer's DM campaign is a 404 on every route", async () => {
  const { customer, accountId } = await customerWithAccount('own')
  const stranger = await newCustomer('peek')
  const { data } = await customer.db
    .from('campaigns')
    .insert({ user_id: customer.id, name: 'Mine', account_id: accountId, sequences: { messages: ['Hi'] } })
    .select('id')
    .single()
  const id = data?.id as string
  for (const [method, path, body] of [
    ['GET', `/v2/campaigns/${id}`],
    ['PUT', `/v2/campaigns/${id}`, { name: 'Hijack' }],
    ['DELETE', `/v2/campaigns/${id}`],
    ['POST', `/v2/campaigns/${id}/launch`],
    ['POST', `/v2/campaigns/${id}/pause`],
  ] as const) {
    const response = await call(stranger, method, path, body)
    assert.deepEqual(response, { status: 404, body: { error: 'Campaign not found' } }, `${method} ${path}`)
  }
  const { data: still } = await customer.db.from('campaigns').select('name').eq('id', id).single()
  assert.equal(still?.name, 'Mine')
})
