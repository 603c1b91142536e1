// A sign-in whose pages never load in time (the X sandbox holds /home unanswered, as a starved
// runner or a stalled network would see it) puts the campaign tick off: the handler ends with a
// DeferredForLoadError (the workers complete such a job as deferred, not failed), the account stays
// active with its trust, nothing counts toward the circuit breaker, the customer is told nothing
// and the campaign's card names no error. Once the page answers again the DM goes out exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { DeferredForLoadError } from '../src/jobs/context.ts'
import { type TestRunner, testRunner } from './helpers/context.ts'
import {
  adminDb,
  closeAdminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  leadsOf,
  logsOf,
} from './helpers/fixtures.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
// the open's page deadline, shared with the runner's open options: short while /home hangs (the
// hang never answers, so the outcome does not depend on the machine's speed), generous after
const timeouts = { navigationMs: 4_000, operationMs: 60_000, confirmMs: 20_000 }

let runner: TestRunner
beforeAll(async () => {
  runner = await testRunner({}, timeouts)
})
afterAll(async () => {
  await runner?.close()
  await closeAdminDb()
})

const accountState = async (accountId: string) =>
  (
    await adminDb().query<{ status: string; flag_reason: string | null; trust_score: number }>(
      'select status, flag_reason, trust_score::float8 as trust_score from public.social_accounts where id = $1',
      [accountId],
    )
  ).rows[0]

/** What tripBreakerIfNeeded counts: failed or unconfirmed sends of the account. */
const breakerCount = async (accountId: string) =>
  (
    await adminDb().query<{ n: number }>(
      `select count(*)::int as n from public.dm_logs where account_id = $1 and status in ('uncertain', 'error')`,
      [accountId],
    )
  ).rows[0]?.n

describe('a sign-in that runs out of time', BROWSER_SUITE, () => {
  it('defers the tick without touching the account; the DM goes once the page answers', async () => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const [lead] = await openProfiles(x, 1, 15_600 + testInt('slow-open lead', 400))
    if (!lead) throw new Error('no sandbox profile')
    const campaignId = await createCampaign(userId, accountId, [lead])
    const before = await accountState(accountId)

    await x.fault({ account: sandbox.username, target: 'page', mode: 'hang', path: '/home', count: 20 })
    for (let i = 0; i < 2; i++)
      await expect(campaignTick(runner.context(), { campaignId, accountId })).rejects.toBeInstanceOf(
        DeferredForLoadError,
      )

    expect(await accountState(accountId)).toEqual(before)
    expect(before?.status).toBe('active')
    expect(await breakerCount(accountId)).toBe(0)
    expect(await logsOf(campaignId)).toEqual([])
    const { rows: notices } = await adminDb().query('select 1 from public.notifications where user_id = $1', [
      userId,
    ])
    expect(notices).toEqual([])
    const { rows: campaign } = await adminDb().query<{ error_message: string | null }>(
      'select error_message from public.campaigns where id = $1',
      [campaignId],
    )
    expect(campaign[0]?.error_message).toBeNull()
    expect((await leadsOf(campaignId)).map((l) => [l.state, l.current_step])).toEqual([['pending', 0]])
    expect(await x.deliveries(sandbox.username)).toEqual([])

    // X answers again: the next tick signs in and sends the DM, once
    await x.call('DELETE', `/faults?account=${encodeURIComponent(sandbox.username)}`)
    timeouts.navigationMs = 40_000
    expect((await campaignTick(runner.context(), { campaignId, accountId })).sent).toBe(1)
    expect((await campaignTick(runner.context(), { campaignId, accountId })).sent).toBeUndefined()
    const delivered = await x.deliveries(sandbox.username)
    expect(delivered.map((d) => d.recipientUsername)).toEqual([lead.username])
    expect((await logsOf(campaignId)).map((l) => l.status)).toEqual(['sent'])
    expect((await accountState(accountId))?.status).toBe('active')
  })
})
