// Warm sessions are a least-recently-used set bounded by memory: with room for two, a third
// account's open closes the one used longest ago (its cookies saved, its lease free for any runner),
// while the account used most recently keeps its signed-in session and its next job opens nothing.
import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { connectWithOAuth, type TestApp } from '../../stack/sandbox/x/test-support.ts'
import { AccountLeases } from '../src/leases.ts'
import { shareOf } from '../src/sessions/fleet-share.ts'
import { SessionManager } from '../src/sessions/manager.ts'
import { type AccountRow, loadAccount } from '../src/sessions/open.ts'
import { type TestRunner, testRunner } from './helpers/context.ts'
import {
  adminDb,
  closeAdminDb,
  createCustomer,
  createOfficialXAccount,
  createXAccount,
  env,
} from './helpers/fixtures.ts'
import { SandboxAdmin, sandboxUrl, type XSandboxAccount } from './helpers/sandbox.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))

describe('warm sessions within a memory bound', BROWSER_SUITE, () => {
  let runner: TestRunner | undefined
  let sessions: SessionManager | undefined
  const other = new AccountLeases(env('RUNNER_DATABASE_URL'), `test-other-${randomUUID()}`)
  afterAll(async () => {
    await sessions?.closeAll()
    await other.close()
    await runner?.close()
    await closeAdminDb()
  })

  it('closes the least recently used beyond the bound; the most recent stays warm', async () => {
    runner = await testRunner()
    await other.start()
    const warm = new SessionManager({ ...runner.sessions.options, maxWarm: 2 })
    sessions = warm
    const customer = await createCustomer()
    const accounts: AccountRow[] = []
    for (let i = 0; i < 3; i++) {
      const row = await loadAccount(runner.db, await createXAccount(customer, await newXAccount(x)))
      if (!row) throw new Error('no account')
      accounts.push(row)
    }
    const [a, b, c] = accounts as [AccountRow, AccountRow, AccountRow]
    const job = async (account: AccountRow) => {
      const used = await warm.use(account.id, 60_000, async (handle) => {
        const opened = await handle.open(account)
        if (opened.status !== 'ok') throw new Error(`sign-in failed: ${opened.status}`)
        await opened.session.readInbox() // the session really works
        return opened.session
      })
      if (used.status !== 'done') throw new Error(`account busy (${used.where})`)
      return used.value
    }
    // sealed afresh (a new nonce) every time the session is saved
    const sealed = async (account: AccountRow) =>
      (
        await adminDb().query<{ sealed: string | null }>(
          'select session_ciphertext as sealed from public.social_account_credentials where account_id = $1',
          [account.id],
        )
      ).rows[0]?.sealed ?? null

    const firstA = await job(a)
    const firstB = await job(b)
    expect(warm.warmCount).toBe(2)
    expect(warm.opened).toBe(2)
    const aSealedBefore = await sealed(a)
    expect(aSealedBefore).not.toBeNull()

    await job(c) // over the bound: a, used longest ago, closes
    expect(warm.warmCount).toBe(2)
    expect(warm.evicted).toBe(1)
    const leaseA = await other.tryAcquire(a.id) // free for another runner now
    expect(leaseA).not.toBeNull()
    if (leaseA) await other.release(leaseA)
    expect(await other.tryAcquire(b.id)).toBeNull() // still held with its warm session
    expect(await sealed(a)).not.toBe(aSealedBefore) // saved as it closed

    expect(await job(b)).toBe(firstB) // warm: the same signed-in session, nothing opened
    expect(warm.opened).toBe(3)
    const againA = await job(a) // a new session, restored from its sealed save; c is now the least recently used
    expect(againA).not.toBe(firstA)
    expect(warm.evicted).toBe(2)
    expect(warm.opened).toBe(3)
    expect(warm.restored).toBe(1)
    expect(await job(b)).toBe(firstB)
    const leaseC = await other.tryAcquire(c.id)
    expect(leaseC).not.toBeNull()
    if (leaseC) await other.release(leaseC)

    // a second runner joined: this one keeps only its share, the most recently used
    await warm.setShare(1)
    expect(warm.warmCount).toBe(1)
    expect(await job(b)).toBe(firstB)
    const freed = await other.tryAcquire(a.id)
    expect(freed).not.toBeNull()
    if (freed) await other.release(freed)
  }, 300_000)
})

describe('official API sessions beside browser ones', BROWSER_SUITE, () => {
  let runner: TestRunner | undefined
  let sessions: SessionManager | undefined
  afterAll(async () => {
    await sessions?.closeAll()
    await runner?.close()
    await closeAdminDb()
  })

  it('an API session holds no browser memory: it neither counts against the bound nor is evicted for room', async () => {
    runner = await testRunner()
    const warm = new SessionManager({ ...runner.sessions.options, maxWarm: 1 })
    sessions = warm
    const customer = await createCustomer()
    const sandbox = await x.createAccount<XSandboxAccount>({ passcode: null })
    const app = await x.call<TestApp>('POST', '/x-api/apps', { callbackUrls: ['http://127.0.0.1:9/cb'] })
    const official = await loadAccount(
      runner.db,
      await createOfficialXAccount(customer, sandbox, {
        ...app,
        ...(await connectWithOAuth(x.base, sandbox, app)),
      }),
    )
    const browser = await loadAccount(runner.db, await createXAccount(customer, await newXAccount(x)))
    if (!official || !browser) throw new Error('no account')
    const job = async (account: AccountRow) => {
      const used = await warm.use(account.id, 60_000, async (handle) => {
        const opened = await handle.open(account)
        if (opened.status !== 'ok') throw new Error(`sign-in failed: ${opened.status}`)
        return opened.session
      })
      if (used.status !== 'done') throw new Error(`account busy (${used.where})`)
      return used.value
    }
    const api = await job(official)
    expect(api.browserless).toBe(true)
    expect(warm.warmCount).toBe(0)
    const page = await job(browser)
    expect(warm.warmCount).toBe(1)
    expect(warm.evicted).toBe(0)
    // both stay warm within a bound of one browser session: neither opens again
    expect(await job(official)).toBe(api)
    expect(await job(browser)).toBe(page)
    expect(warm.opened).toBe(2)
  }, 300_000)
})

describe("a runner's share of the fleet", () => {
  it('is every active account for one runner, a split with slack for several', () => {
    expect(shareOf(500, 1)).toBe(601)
    expect(shareOf(500, 2)).toBe(301)
    expect(shareOf(500, 0)).toBe(601) // no heartbeat yet: this runner alone
    expect(shareOf(0, 3)).toBe(1)
  })
})
