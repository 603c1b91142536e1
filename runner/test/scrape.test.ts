// scrape.run against the sandboxes in Chromium: each source (followers, following, hashtag, keyword
// on X; followers and hashtag on Instagram), each filter with its stored reason, counters and
// completion with its notification, resuming from the saved cursor after a restart, rate limits
// that postpone the next run without pausing the account, and a source a platform cannot read.
import { afterAll, beforeAll, describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { scrapeRun } from '../src/jobs/scrape-run.ts'
import { type TestRunner, testRunner } from './helpers/context.ts'
import {
  accountRow,
  adminDb,
  closeAdminDb,
  createCustomer,
  createInstagramAccount,
  createXAccount,
  notificationsOf,
} from './helpers/fixtures.ts'
import { type IgSandboxAccount, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
let runner: TestRunner

beforeAll(async () => {
  runner = await testRunner()
})
afterAll(async () => {
  await runner.close()
  await closeAdminDb()
})

async function createScraping(
  userId: string,
  accountId: string,
  sources: { type: string; value: string }[],
  target: number,
  filters: Record<string, unknown> = {},
): Promise<string> {
  const { rows } = await adminDb().query<{ id: string }>(
    `insert into public.scraping_campaigns (user_id, account_id, name, sources, target_count, filters, status)
     values ($1, $2, 'Runner scrape test', $3, $4, $5, 'running') returning id`,
    [userId, accountId, JSON.stringify(sources), target, filters],
  )
  return rows[0]?.id as string
}

async function scraping(id: string) {
  const { rows } = await adminDb().query<{
    status: string
    collected_count: number
    leads_collected: number
    progress: { sources: Record<string, { cursor: string | null; done: boolean; pages: number }> }
    next_run_at: Date | null
    error_message: string | null
  }>('select * from public.scraping_campaigns where id = $1', [id])
  return rows[0]
}

async function leadsOf(id: string) {
  const { rows } = await adminDb().query<{
    username: string
    is_filtered: boolean
    filter_reason: string | null
    source_type: string
    source_value: string
    profile_data: Record<string, unknown>
  }>(
    'select username, is_filtered, filter_reason, source_type, source_value, profile_data from public.scraping_campaign_leads where scraping_campaign_id = $1',
    [id],
  )
  return rows
}

/** A population profile with a long follower list. */
async function popular(admin: SandboxAdmin, skip: number) {
  const [profile] = await admin.profiles({ minFollowers: 20_000, protected: false, limit: 1, offset: skip })
  if (!profile) throw new Error('no popular profile')
  return profile
}

describe.concurrent('scrape.run on X', BROWSER_SUITE, () => {
  it('collects followers with the filters applied, reasons kept, until the target completes it', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const accountId = await createXAccount(userId, await newXAccount(x))
    const source = await popular(x, testInt('scrape x source', 50))
    const id = await createScraping(userId, accountId, [{ type: 'followers', value: source.username }], 12, {
      min_followers: 300,
      max_followers: 400_000,
      has_bio: true,
      exclude_business: true,
    })
    const result = await scrapeRun(runner.context(), { scrapingCampaignId: id })
    expect(result.status).toBe('completed')
    const leads = await leadsOf(id)
    const valid = leads.filter((l) => !l.is_filtered)
    // The target is a ceiling: never "20 of 15".
    expect(valid.length).toBe(12)
    for (const lead of valid) {
      expect(Number(lead.profile_data.followers_count)).toBeGreaterThanOrEqual(300)
      expect(Number(lead.profile_data.followers_count)).toBeLessThanOrEqual(400_000)
      expect(String(lead.profile_data.bio).trim()).not.toBe('')
      expect(lead.profile_data.is_business).toBe(false)
      expect(lead.profile_data.platform_id).toMatch(/^\d+$/)
    }
    const reasons = new Set(leads.filter((l) => l.is_filtered).map((l) => l.filter_reason))
    expect(
      [...reasons].every((r) =>
        [
          'Fewer followers than the minimum',
          'More followers than the maximum',
          'No bio',
          'Business account',
        ].includes(r ?? ''),
      ),
    ).toBe(true)
    expect(reasons.size).toBeGreaterThan(0)
    const campaign = await scraping(id)
    expect(campaign).toMatchObject({
      status: 'completed',
      collected_count: leads.length,
      leads_collected: valid.length,
    })
    expect((await notificationsOf(userId)).map((n) => n.type)).toEqual(['scraping_completed'])
  })

  it('resumes from its saved cursor after a restart: no profile twice, none skipped', async ({ expect }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const source = await popular(x, 60 + testInt('scrape x source 60', 50))
    const id = await createScraping(
      userId,
      accountId,
      [{ type: 'followers', value: source.username }],
      10_000,
    )
    const before = await testRunner()
    try {
      expect((await scrapeRun(before.context(), { scrapingCampaignId: id })).pages).toBe(10)
    } finally {
      // the runner goes away (its lease with it)
      await before.close()
    }
    const afterFirst = await scraping(id)
    const key = `followers:${source.username.toLowerCase()}`
    expect(afterFirst?.progress.sources[key]).toMatchObject({ pages: 10, done: false })
    expect(afterFirst?.next_run_at).not.toBeNull()

    // a new runner (fresh sessions) picks up where the stored cursor says
    const restarted = await testRunner()
    try {
      await scrapeRun(restarted.context(), { scrapingCampaignId: id })
    } finally {
      await restarted.close()
    }
    const leads = await leadsOf(id)
    expect(new Set(leads.map((l) => l.username.toLowerCase())).size).toBe(leads.length)
    expect(leads.length).toBeGreaterThan(20 * 15)
    // straight through the list: what two runs stored equals one continuous read of 20 pages
    const continuous: string[] = []
    let cursor: string | null = null
    const { openXSession } = await import('../src/platforms/x/session.ts')
    const { parseXCookies } = await import('../src/platforms/x/cookies.ts')
    const parsed = parseXCookies(sandbox.cookies)
    if (!parsed.ok) throw new Error(parsed.error)
    const opened = await openXSession(parsed.value, {
      pool: runner.pool,
      baseUrl: x.base,
      typing: { delayFactor: 0 },
    })
    if (opened.status !== 'ok') throw new Error('no session')
    for (let page = 0; page < 20; page++) {
      const next = await opened.session.scrape({ source: 'followers', value: source.username, cursor })
      continuous.push(...next.profiles.map((p) => p.username.toLowerCase()))
      cursor = next.nextCursor
      if (!cursor) break
    }
    await opened.session.close()
    expect(new Set(leads.map((l) => l.username.toLowerCase()))).toEqual(new Set(continuous))
  })

  it('reads hashtag posts and keyword search, with verified-only', async ({ expect }) => {
    const userId = await createCustomer()
    const accountId = await createXAccount(userId, await newXAccount(x))
    const id = await createScraping(
      userId,
      accountId,
      [
        { type: 'hashtag', value: 'saas' },
        { type: 'keyword', value: 'marketing' },
      ],
      10_000,
      { verified_only: true },
    )
    const result = await scrapeRun(runner.context(), { scrapingCampaignId: id })
    expect(result.pages).toBeGreaterThan(0)
    const leads = await leadsOf(id)
    expect(new Set(leads.map((l) => l.source_type))).toEqual(new Set(['hashtag', 'keyword']))
    for (const lead of leads) {
      const verified = lead.profile_data.verified === true || lead.profile_data.blue_verified === true
      expect(lead.is_filtered).toBe(!verified)
      if (!verified) expect(lead.filter_reason).toBe('Not verified')
    }
  })

  it('a rate limit postpones the next run until it resets, without pausing the account', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { scrapeLimit: 3, scrapeWindowMs: 600_000 } })
    const accountId = await createXAccount(userId, sandbox)
    const source = await popular(x, 120 + testInt('scrape x source 120', 50))
    const id = await createScraping(
      userId,
      accountId,
      [{ type: 'followers', value: source.username }],
      10_000,
    )
    const result = await scrapeRun(runner.context(), { scrapingCampaignId: id })
    // three pages spend the limit (the last says 0 remaining): the run stops there instead of meeting a 429
    expect(result.pages).toBe(3)
    const campaign = await scraping(id)
    expect(campaign?.status).toBe('running')
    expect((campaign?.next_run_at?.getTime() ?? 0) - Date.now()).toBeGreaterThan(8 * 60_000)
    expect((await accountRow(accountId)).status).toBe('active')
  })
})

describe.concurrent('scrape.run following', BROWSER_SUITE, () => {
  it('collects who a profile follows on X and on Instagram; a private Instagram source is unreadable', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const xAccountId = await createXAccount(userId, await newXAccount(x))
    const xSource = await popular(x, 60 + testInt('scrape both x source', 50))
    const xRun = await createScraping(
      userId,
      xAccountId,
      [{ type: 'following', value: xSource.username }],
      15,
    )
    expect((await scrapeRun(runner.context(), { scrapingCampaignId: xRun })).status).toBe('completed')
    const xLeads = await leadsOf(xRun)
    expect(xLeads.length).toBeGreaterThanOrEqual(15)
    expect(new Set(xLeads.map((l) => `${l.source_type}:${l.source_value}`))).toEqual(
      new Set([`following:${xSource.username}`]),
    )

    const igAccountId = await createInstagramAccount(userId, await ig.createAccount<IgSandboxAccount>({}))
    const igSource = await popular(ig, 60 + testInt('scrape both ig source', 50))
    const [hidden] = await ig.profiles({
      protected: true,
      limit: 1,
      offset: testInt('scrape hidden ig profile', 20),
    })
    const igRun = await createScraping(
      userId,
      igAccountId,
      [
        { type: 'following', value: hidden?.username ?? 'nobody' },
        { type: 'following', value: igSource.username },
      ],
      15,
    )
    let result = await scrapeRun(runner.context(), { scrapingCampaignId: igRun })
    for (let run = 0; run < 3 && result.status === 'running'; run++)
      result = await scrapeRun(runner.context(), { scrapingCampaignId: igRun })
    expect(result.status).toBe('completed')
    const progress = (await scraping(igRun))?.progress
    expect(progress?.sources[`following:${hidden?.username}`]).toMatchObject({ done: true })
    expect(JSON.stringify(progress)).toContain('is private')
    const igLeads = await leadsOf(igRun)
    expect(igLeads.length).toBeGreaterThanOrEqual(15)
    expect(igLeads.every((l) => l.source_value === igSource.username)).toBe(true)
  })
})

describe.concurrent('scrape.run on Instagram', BROWSER_SUITE, () => {
  it('collects hashtag authors and followers; keyword search is marked unreadable', async ({ expect }) => {
    const userId = await createCustomer()
    const accountId = await createInstagramAccount(userId, await ig.createAccount<IgSandboxAccount>({}))
    const source = await popular(ig, testInt('scrape ig source', 50))
    const id = await createScraping(
      userId,
      accountId,
      [
        { type: 'keyword', value: 'design studio' },
        { type: 'hashtag', value: 'design' },
        { type: 'followers', value: source.username },
      ],
      20,
      { min_followers: 100 },
    )
    let result = await scrapeRun(runner.context(), { scrapingCampaignId: id })
    for (let run = 0; run < 3 && result.status === 'running'; run++)
      result = await scrapeRun(runner.context(), { scrapingCampaignId: id })
    expect(result.status).toBe('completed')
    const campaign = await scraping(id)
    expect(campaign?.progress.sources['keyword:design studio']).toMatchObject({ done: true })
    expect(JSON.stringify(campaign?.progress)).toContain('not supported')
    const leads = await leadsOf(id)
    expect(leads.filter((l) => !l.is_filtered).length).toBeGreaterThanOrEqual(20)
    expect(
      leads.filter((l) => l.is_filtered).every((l) => l.filter_reason === 'Fewer followers than the minimum'),
    ).toBe(true)
  })
})

describe('a run that cannot collect says why on the campaign', () => {
  it('an account in error records the reason and the fix instead of a silent next run', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const accountId = await createXAccount(userId, await newXAccount(x))
    await adminDb().query(`update public.social_accounts set status = 'error' where id = $1`, [accountId])
    const id = await createScraping(userId, accountId, [{ type: 'followers', value: 'anyone' }], 5)
    const result = await scrapeRun(runner.context(), { scrapingCampaignId: id })
    expect(result.collected).toBe(0)
    const campaign = await scraping(id)
    expect(campaign?.error_message).toMatch(/is in error: fix it in Social Accounts/)
  })
})
