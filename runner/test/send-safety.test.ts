// What campaign.tick does when sending goes wrong, against the X sandbox in Chromium: every stop
// signal pauses or flags the account (with one notification) and leaves the lead to send later;
// a burst of unconfirmed sends trips the circuit breaker. The at-most-once cases (page errors,
// lost answers, sends that never arrived, a crash mid-send, duplicate ticks) run on both platforms
// in at-most-once.test.ts.
import { describe, it } from 'vitest'
import { encryptSecret, keyringFromEnv } from '../src/crypto.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { testRunner } from './helpers/context.ts'
import {
  accountRow,
  adminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  leadsOf,
  logsOf,
  notificationsOf,
} from './helpers/fixtures.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const suite = browserSuite(x, 7000)
const { people } = suite

async function setUp(leadCount: number, body: Record<string, unknown> = {}) {
  const userId = await createCustomer()
  const sandbox = await newXAccount(x, body)
  const accountId = await createXAccount(userId, sandbox)
  const leads = await people(leadCount)
  const campaignId = await createCampaign(userId, accountId, leads)
  const tick = () => campaignTick(suite.runner.context(), { campaignId, accountId })
  return { userId, sandbox, accountId, leads, campaignId, tick }
}

describe.concurrent('stop signals while sending', BROWSER_SUITE, () => {
  for (const [code, kind] of [
    [88, 'rate limit'],
    [429, 'rate limit'],
    [226, 'automation'],
  ] as const) {
    it(`${code}: pauses the account, tells the customer, keeps the lead for later`, async ({ expect }) => {
      const { userId, sandbox, accountId, campaignId, tick } = await setUp(2)
      await x.fault({ account: sandbox.username, target: 'send', mode: 'error', code })
      const result = await tick()
      expect(result.account_stopped).toBe(1)
      const account = await accountRow(accountId)
      expect(account.status).toBe('paused')
      expect(account.flag_reason).toContain(kind)
      expect(account.flag_reason).toContain(`(${code === 429 ? 88 : code})`)
      const pausedForHours = ((account.paused_until?.getTime() ?? 0) - Date.now()) / 3_600_000
      if (code === 226) expect(pausedForHours).toBeGreaterThan(23)
      else expect(pausedForHours).toBeGreaterThan(0.5)
      expect(Number(account.trust_score)).toBeLessThan(0.5)
      expect((await notificationsOf(userId)).map((n) => n.type)).toEqual(['account_flagged'])
      expect(await x.deliveries(sandbox.username)).toEqual([])
      // nothing went out: the lead waits for the account to resume, the attempt is logged as an error
      expect((await leadsOf(campaignId)).map((l) => l.state).sort()).toEqual(['pending', 'pending'])
      expect((await logsOf(campaignId)).map((l) => l.status)).toEqual(['error'])
      // a paused account's ticks do nothing
      expect(await tick()).toEqual({ note: 'The account is not active.' })
    })
  }

  it('326: flags a locked account for the customer', async ({ expect }) => {
    const { userId, sandbox, accountId, tick } = await setUp(1)
    await x.fault({ account: sandbox.username, target: 'send', mode: 'error', code: 326 })
    await tick()
    const account = await accountRow(accountId)
    expect(account).toMatchObject({ status: 'flagged', paused_until: null })
    expect(account.flag_reason).toContain('(326)')
    expect((await notificationsOf(userId))[0]).toMatchObject({
      type: 'account_flagged',
      title: 'Account needs attention',
    })
  })

  it('an account X locked or signed out is flagged or put in error at sign-in', async ({ expect }) => {
    const locked = await setUp(1, { state: 'locked' })
    const expired = await setUp(1, { state: 'expired' })
    await locked.tick()
    await expired.tick()
    expect((await accountRow(locked.accountId)).status).toBe('flagged')
    expect((await accountRow(expired.accountId)).status).toBe('error')
    expect((await notificationsOf(expired.userId)).map((n) => n.type)).toEqual(['account_flagged'])
    expect(await x.deliveries(locked.sandbox.username)).toEqual([])
  })

  it('a wrong X Chat passcode is entered once and never guessed again', async ({ expect }) => {
    const { sandbox, accountId, tick } = await setUp(1, { passcode: '1357' })
    await adminDb().query(
      `update public.social_account_credentials set ciphertext = $2 where account_id = $1`,
      [accountId, sealedX(sandbox.cookies, '9999')],
    )
    await tick()
    const account = await accountRow(accountId)
    expect(account.status).toBe('error')
    expect(account.flag_reason).toMatch(/passcode/i)
    const state = await x.call<{ chatLocked: boolean }>('GET', `/accounts/${sandbox.username}`)
    expect(state.chatLocked).toBe(false)
    expect(await x.deliveries(sandbox.username)).toEqual([])
  })
})

describe.concurrent('unconfirmed sends', BROWSER_SUITE, () => {
  it('three unconfirmed sends in a row trip the circuit breaker', async ({ expect }) => {
    const { userId, sandbox, accountId, campaignId } = await setUp(4)
    await x.fault({ account: sandbox.username, target: 'send', mode: 'dropped', count: 3 })
    // settle nothing in between: a fresh check would find them missing
    const slow = await testRunner({ uncertainCheckAfterMs: 3_600_000 })
    try {
      const result = await campaignTick(slow.context(), { campaignId, accountId })
      expect(result).toMatchObject({ uncertain: 2, account_stopped: 1 })
    } finally {
      await slow.close()
    }
    const account = await accountRow(accountId)
    expect(account.status).toBe('paused')
    expect(account.flag_reason).toMatch(/could not be confirmed/)
    expect((await notificationsOf(userId)).map((n) => n.type)).toEqual(['account_flagged'])
  })
})

function sealedX(cookies: unknown[], passcode: string): string {
  return encryptSecret(
    JSON.stringify({ v: 1, platform: 'twitter', cookies, chatPasscode: passcode }),
    keyringFromEnv(),
  )
}
