// What the runner tells lands in the workspace of the row it is about (the account's, the scraping
// campaign's), not in whichever workspace that row's creator works in by now: an account that
// needs its customer, and a scraping campaign whose sources ran out (in Chromium, against the
// Instagram sandbox).
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { accountNeedsCustomer } from '../src/accounts/status.ts'
import { scrapeRun } from '../src/jobs/scrape-run.ts'
import { type TestRunner, testRunner } from './helpers/context.ts'
import { adminDb, closeAdminDb, createCustomer, createInstagramAccount, env } from './helpers/fixtures.ts'
import { type IgSandboxAccount, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE } from './helpers/x-session.ts'

const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const runnerDb = new pg.Pool({ connectionString: env('RUNNER_DATABASE_URL'), max: 2 })
let runner: TestRunner

beforeAll(async () => {
  runner = await testRunner()
})
afterAll(async () => {
  await runner.close()
  await runnerDb.end()
  await closeAdminDb()
})

/** The customer starts a client workspace and works in it from now on; its id. */
async function worksInAnotherWorkspace(userId: string): Promise<string> {
  const { rows } = await adminDb().query<{ id: string }>(
    `with created as (insert into public.workspaces (name, created_by) values ('Client B', $1) returning id),
          joined as (insert into public.workspace_members (workspace_id, user_id, role)
                     select id, $1, 'owner' from created)
     update public.user_profiles p set active_workspace_id = created.id from created where p.id = $1
     returning created.id`,
    [userId],
  )
  const id = rows[0]?.id
  if (!id) throw new Error('no client workspace')
  return id
}

/** How many of the notifications of `type` about `key` = `value` are in each workspace. */
async function landed(type: string, key: string, value: string, personal: string, other: string) {
  const { rows } = await adminDb().query<{ personal: number; other: number }>(
    `select count(*) filter (where workspace_id = $4)::int as personal,
            count(*) filter (where workspace_id = $5)::int as other
       from public.notifications where type = $1 and metadata ->> $2 = $3`,
    [type, key, value, personal, other],
  )
  return rows[0]
}

describe('runner notices name the workspace of their row', () => {
  it("an account that needs its customer is told in the account's workspace", async ({ expect }) => {
    const userId = await createCustomer()
    const { rows } = await adminDb().query<{ id: string; username: string }>(
      `insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase)
       select $1, p.id, $2, 'active', 5 from public.platforms p where p.name = 'twitter' returning id, username`,
      [userId, `ws_notice_${userId.slice(0, 8)}`],
    )
    const account = rows[0]
    if (!account) throw new Error('no account')
    const other = await worksInAnotherWorkspace(userId)

    await accountNeedsCustomer(
      runnerDb,
      { id: account.id, user_id: userId, username: account.username, platform: 'twitter' },
      'The password is wrong.',
    )
    // a customer's personal workspace has their id
    expect(await landed('account_flagged', 'accountId', account.id, userId, other)).toEqual({
      personal: 1,
      other: 0,
    })
  })
})

describe('a scraping campaign whose sources ran out', BROWSER_SUITE, () => {
  it("completes and is told in the campaign's workspace", async ({ expect }) => {
    const userId = await createCustomer()
    const accountId = await createInstagramAccount(userId, await ig.createAccount<IgSandboxAccount>({}))
    // a private profile's lists cannot be read: its one source is done at once
    const [hidden] = await ig.profiles({
      protected: true,
      limit: 1,
      offset: testInt('workspace notice hidden ig profile', 20),
    })
    if (!hidden) throw new Error('no private profile in the sandbox')
    const { rows } = await adminDb().query<{ id: string }>(
      `insert into public.scraping_campaigns (user_id, account_id, name, sources, target_count, status)
       values ($1, $2, 'Nobody readable', $3, 10, 'running') returning id`,
      [userId, accountId, JSON.stringify([{ type: 'following', value: hidden.username }])],
    )
    const campaignId = rows[0]?.id as string
    const other = await worksInAnotherWorkspace(userId)

    const result = await scrapeRun(runner.context(), { scrapingCampaignId: campaignId })
    expect(result.status).toBe('completed')
    expect(await landed('scraping_completed', 'scrapingCampaignId', campaignId, userId, other)).toEqual({
      personal: 1,
      other: 0,
    })
  })
})
