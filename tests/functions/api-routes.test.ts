// Every route of the api function through the gateway with supabase-js's functions.invoke: the
// owner gets their data, another customer gets 404 for the owner's ids (and never sees the owner's
// rows in lists), a visitor without a session gets 401; oversize and malformed bodies are clear 4xx.
import { beforeAll, describe, expect, it } from 'vitest'
import { anonKey, api } from '../../stack/gateway/test/helpers.ts'
import { client, customer, givePlan, invoke, type Json, serviceClient, xCookies } from './helpers.ts'

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

let owner: Awaited<ReturnType<typeof customer>>
let other: Awaited<ReturnType<typeof customer>>
const ids = { account: '', scraping: '', campaign: '', list: '', session: '' }

beforeAll(async () => {
  owner = await customer('owner')
  other = await customer('other')
  await givePlan(owner.id, 5)
  const account = await invoke(owner.sb, 'api/social-accounts', 'POST', {
    platform: 'twitter',
    username: 'owner_x',
    authData: { cookies: xCookies() },
    proxyUrl: null,
  })
  expect(account.status).toBe(201)
  ids.account = account.body.id as string
  await serviceClient()
    .from('social_accounts')
    .update({ status: 'active', warmup_phase: 5 })
    .eq('id', ids.account)

  const scraping = await invoke(owner.sb, 'api/lead-scraping/campaigns', 'POST', {
    name: 'Founders',
    account_id: ids.account,
    sources: { type: 'keyword', value: 'saas' },
    target_count: 2,
    filters: { min_followers: 0, max_followers: null },
  })
  expect(scraping.status).toBe(201)
  ids.scraping = scraping.body.id as string
  expect((await invoke(owner.sb, `api/scraping-campaigns/${ids.scraping}/start`, 'POST')).status).toBe(200)
  const { error } = await serviceClient()
    .from('scraping_campaign_leads')
    .insert(['ann', 'ben'].map((username) => ({ scraping_campaign_id: ids.scraping, username })))
  expect(error).toBeNull()

  const campaign = await invoke(owner.sb, 'api/v2/campaigns', 'POST', {
    name: 'Outreach',
    account_id: ids.account,
    platform: 'twitter',
    scraping_campaign_id: ids.scraping,
    sequences: { messages: ['Hi {username}', '', ''] },
    schedule: { timezone: 'UTC', timeFrom: '09:00', timeTo: '17:00', activeDays: ['monday'] },
    run_immediately: false,
    target_count: 50,
  })
  expect(campaign.status, JSON.stringify(campaign.body)).toBe(201)
  ids.campaign = campaign.body.id as string

  const list = await invoke(owner.sb, 'api/lead-lists', 'POST', { name: 'Favourites' })
  expect(list.status).toBe(201)
  ids.list = list.body.id as string

  const checkout = await invoke(owner.sb, 'api/api/create-checkout-session', 'POST', {
    planType: 'growth',
    billingPeriod: 'monthly',
    accountCount: 2,
  })
  expect(checkout.status).toBe(200)
  ids.session = checkout.body.sessionId as string
})

/** Routes that name one of the owner's rows. */
const idRoutes = (): [Method, string, unknown?][] => [
  ['POST', `api/social-accounts/${ids.account}/test`],
  ['DELETE', `api/social-accounts/${ids.account}`],
  ['GET', `api/lead-scraping/campaigns/${ids.scraping}`],
  ['GET', `api/scraping-campaigns/${ids.scraping}`],
  ['POST', `api/scraping-campaigns/${ids.scraping}/pause`],
  ['POST', `api/scraping-campaigns/${ids.scraping}/start`],
  ['DELETE', `api/scraping-campaigns/${ids.scraping}`],
  ['GET', `api/v2/campaigns/${ids.campaign}`],
  ['PUT', `api/v2/campaigns/${ids.campaign}`, { name: 'Taken over' }],
  ['POST', `api/v2/campaigns/${ids.campaign}/launch`],
  ['POST', `api/v2/campaigns/${ids.campaign}/pause`],
  ['DELETE', `api/v2/campaigns/${ids.campaign}`],
  ['GET', `api/lead-lists/${ids.list}`],
  ['DELETE', `api/lead-lists/${ids.list}`],
  ['GET', `api/api/checkout-session/${ids.session}`],
]

/** Routes about the caller as a whole. */
const ownRoutes: [Method, string, unknown?][] = [
  ['GET', 'api/social-accounts'],
  ['GET', 'api/social-accounts/platforms'],
  ['POST', 'api/social-accounts', { platform: 'instagram', username: 'x', authData: { password: 'p' } }],
  ['POST', 'api/social-accounts/validate-cookies', { platform: 'twitter', cookies: xCookies() }],
  ['GET', 'api/lead-scraping/campaigns'],
  ['POST', 'api/lead-scraping/campaigns', {}],
  ['GET', 'api/scraping-campaigns'],
  ['POST', 'api/scraping-campaigns', {}],
  ['GET', 'api/v2/campaigns'],
  ['POST', 'api/v2/campaigns', {}],
  ['GET', 'api/lead-lists'],
  ['POST', 'api/lead-lists', { name: 'x' }],
  ['GET', 'api/user/credits'],
  ['POST', 'api/api/create-checkout-session', { planType: 'starter' }],
  ['POST', 'api/billing/cancel'],
  ['POST', 'api/billing/resume'],
  ['POST', 'api/billing/portal'],
  ['POST', 'api/api/subscription/cancel'],
  ['POST', 'api/api/subscription/resume'],
  ['GET', 'api/api/invoices/in_123'],
  ['GET', 'api/invoices/in_123'],
]

describe('api routes', () => {
  it('answer 401 to a visitor without a session, on every route', async () => {
    const visitor = client()
    for (const [method, path, body] of [...idRoutes(), ...ownRoutes]) {
      const result = await invoke(visitor, path, method, body)
      expect(result, `${method} ${path}`).toEqual({ status: 401, body: { error: 'User not authenticated' } })
    }
    const noHeader = await fetch(`${api}/functions/v1/api/social-accounts`, { headers: { apikey: anonKey } })
    expect(noHeader.status).toBe(401)
  })

  it("answer 404 to another customer for each of the owner's ids, and change nothing", async () => {
    for (const [method, path, body] of idRoutes()) {
      const result = await invoke(other.sb, path, method, body)
      expect(result.status, `${method} ${path}`).toBe(404)
      expect(result.body.error, `${method} ${path}`).toMatch(/not found/i)
    }
    const campaign = await invoke(owner.sb, `api/v2/campaigns/${ids.campaign}`)
    expect(campaign.body).toMatchObject({ name: 'Outreach', status: 'draft' })
  })

  it("never show another customer the owner's rows in lists", async () => {
    const lists: [string, string][] = [
      ['api/social-accounts', ids.account],
      ['api/scraping-campaigns', ids.scraping],
      ['api/lead-scraping/campaigns', ids.scraping],
      ['api/v2/campaigns', ids.campaign],
      ['api/lead-lists', ids.list],
    ]
    for (const [path, id] of lists) {
      const mine = await invoke<Json[]>(owner.sb, path)
      expect(
        mine.body.map((row) => row.id),
        path,
      ).toContain(id)
      const theirs = await invoke<Json[]>(other.sb, path)
      expect(theirs.status).toBe(200)
      expect(
        theirs.body.map((row) => row.id),
        path,
      ).not.toContain(id)
    }
    const credits = await invoke(other.sb, 'api/user/credits')
    expect(credits.body).toMatchObject({ plan: { type: 'free', accountsUsed: 0 }, accounts: [] })
  })

  it('give the owner their data on every route', async () => {
    const platforms = await invoke<Json[]>(owner.sb, 'api/social-accounts/platforms')
    expect(platforms.body.filter((p) => p.is_active).map((p) => p.name)).toEqual(['instagram', 'twitter'])
    const accounts = await invoke<Json[]>(owner.sb, 'api/social-accounts')
    expect(accounts.body[0]).toMatchObject({
      id: ids.account,
      username: 'owner_x',
      platform_name: 'twitter',
      platform: { name: 'twitter', display_name: 'Twitter' },
      status: 'active',
      connected: true,
      messagesPerDay: 50,
      connectionRequests: 0,
    })
    const scraping = await invoke(owner.sb, `api/scraping-campaigns/${ids.scraping}`)
    expect(scraping.body).toMatchObject({ status: 'completed', scraped: 2, verified: 2, criteria: '"saas"' })
    const campaigns = await invoke<Json[]>(owner.sb, 'api/v2/campaigns')
    expect(campaigns.body[0]).toMatchObject({ id: ids.campaign, leads: 2, sent: 0, status: 'draft' })
    const credits = await invoke(owner.sb, 'api/user/credits')
    expect(credits.body).toMatchObject({
      plan: { type: 'growth', accountLimit: 5, accountsUsed: 1, dmsPerDay: 2250 },
    })
    const session = await invoke(owner.sb, `api/api/checkout-session/${ids.session}`)
    expect(session.body).toMatchObject({
      amount_total: 7800,
      customer: { email: owner.email },
      metadata: { planType: 'growth', billing_cycle: 'monthly', accounts: '2', traffic_source: 'unknown' },
    })

    expect(
      (await invoke(owner.sb, `api/v2/campaigns/${ids.campaign}`, 'PUT', { stage: 'Warm' })).body,
    ).toMatchObject({
      stage: 'Warm',
    })
    expect((await invoke(owner.sb, `api/v2/campaigns/${ids.campaign}/launch`, 'POST')).body).toMatchObject({
      status: 'running',
    })
    expect((await invoke(owner.sb, `api/v2/campaigns/${ids.campaign}/pause`, 'POST')).body).toMatchObject({
      status: 'paused',
    })
    expect((await invoke(owner.sb, `api/lead-lists/${ids.list}`)).body).toMatchObject({
      name: 'Favourites',
      leads: [],
    })
    expect((await invoke(owner.sb, `api/lead-lists/${ids.list}`, 'DELETE')).status).toBe(200)
    expect((await invoke(owner.sb, `api/v2/campaigns/${ids.campaign}`, 'DELETE')).status).toBe(200)
    expect((await invoke(owner.sb, `api/scraping-campaigns/${ids.scraping}`, 'DELETE')).status).toBe(200)
    expect((await invoke(owner.sb, `api/social-accounts/${ids.account}`, 'DELETE')).body).toMatchObject({
      deleted: true,
      message: 'Account deleted successfully!',
    })
    expect((await invoke<Json[]>(owner.sb, 'api/social-accounts')).body).toEqual([])
    expect((await invoke(owner.sb, 'api/billing/cancel', 'POST')).body).toEqual({
      error: 'No subscription found',
    })
  })

  it('answer oversize, malformed and mistyped bodies with a clear 4xx, never a 500', async () => {
    const post = (body: string | Uint8Array<ArrayBuffer>, type = 'application/json') =>
      fetch(`${api}/functions/v1/api/social-accounts`, {
        method: 'POST',
        headers: {
          apikey: anonKey,
          Authorization: `Bearer ${owner.session.access_token}`,
          'Content-Type': type,
        },
        body,
      })
    const oversize = await post(
      JSON.stringify({ platform: 'twitter', username: 'big', authData: { cookies: 'x'.repeat(70_000) } }),
    )
    expect(oversize.status).toBe(413)
    expect(await oversize.json()).toEqual({ error: 'Request body is too large (limit 64 KB)' })
    const malformed = await post('{"platform": "twitter",')
    expect([malformed.status, await malformed.json()]).toEqual([
      400,
      { error: 'Request body must be valid JSON' },
    ])
    const empty = await post('')
    expect([empty.status, await empty.json()]).toEqual([400, { error: 'Request body is required' }])
    const notUtf8 = await post(Uint8Array.from([0xff, 0xfe, 0x7b]), 'text/plain')
    expect(notUtf8.status).toBe(400)
    const wrongTypes = await invoke(owner.sb, 'api/v2/campaigns', 'POST', { name: 42, sequences: 'hi' })
    expect(wrongTypes.status).toBe(400)
    expect(wrongTypes.body.error).toBe('Campaign name is required')
    const badId = await invoke(owner.sb, 'api/v2/campaigns/%27%3B%20drop%20table', 'GET')
    expect(badId).toEqual({ status: 404, body: { error: 'Campaign not found' } })
    const unknown = await invoke(owner.sb, 'api/no-such-route', 'GET')
    expect(unknown.status).toBe(404)
    const wrongMethod = await invoke(owner.sb, 'api/user/credits', 'DELETE')
    expect(wrongMethod.status).toBe(405)
  })
})
