// Sends come first: a sign-in for a campaign send is served before one for an inbox read, and an
// inbox sync that would need a sign-in while sends wait or the machine is short of CPU is put off to
// the scheduler's next round (unless the customer waits on it, or the account has gone unread for
// 30 minutes). Against the X sandbox in real Chromium; "cold reads wait" is fed to the handler, and
// the sign-in slots are a real Gate held by the test.
import { describe, it } from 'vitest'
import { DeferredForLoadError } from '../src/jobs/context.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import { Gate, SEND_PRIORITY } from '../src/ops/gate.ts'
import { SessionManager } from '../src/sessions/manager.ts'
import { loadAccount } from '../src/sessions/open.ts'
import { adminDb, createCustomer, createXAccount } from './helpers/fixtures.ts'
import { waitFor } from './helpers/process.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const suite = browserSuite(x, 16_000)
const sendsWait = { admission: { coldReadsWait: () => true } }
const lastRead = (accountId: string, minutesAgo: number) =>
  adminDb().query(
    `update public.social_accounts set last_synced_at = internal.now() - make_interval(mins => $2) where id = $1`,
    [accountId, minutesAgo],
  )

// one after another: the first counts the suite's sign-ins
describe('sends first', BROWSER_SUITE, () => {
  it('an inbox sync that needs a sign-in waits while sends wait, unless a person waits on it; a warm one reads', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const sessions = suite.runner.sessions
    const opened = sessions.opened
    await lastRead(accountId, 5)

    await expect(inboxSync(suite.runner.context(sendsWait), { accountId })).rejects.toBeInstanceOf(
      DeferredForLoadError,
    )
    expect(sessions.opened).toBe(opened)
    expect(sessions.isWarm(accountId)).toBe(false)

    // "Check now": a person waits for this read, so it signs in even now
    await adminDb().query(
      'insert into public.inbox_check_requests (account_id, user_id, requested_at) values ($1, $2, internal.now())',
      [accountId, userId],
    )
    expect(await inboxSync(suite.runner.context(sendsWait), { accountId })).toMatchObject({
      conversations: 0,
    })
    expect(sessions.opened).toBe(opened + 1)
    expect(sessions.isWarm(accountId)).toBe(true)

    // warm: reading takes no sign-in, so it does not wait
    expect(await inboxSync(suite.runner.context(sendsWait), { accountId })).toMatchObject({
      conversations: 0,
    })
    expect(sessions.opened).toBe(opened + 1)
  })

  it('an account unread for 30 minutes is read even while sends wait', async ({ expect }) => {
    const userId = await createCustomer()
    const accountId = await createXAccount(userId, await newXAccount(x))
    await lastRead(accountId, 29)
    await expect(inboxSync(suite.runner.context(sendsWait), { accountId })).rejects.toBeInstanceOf(
      DeferredForLoadError,
    )
    await lastRead(accountId, 31)
    expect(await inboxSync(suite.runner.context(sendsWait), { accountId })).toMatchObject({
      conversations: 0,
    })
    expect(suite.runner.sessions.isWarm(accountId)).toBe(true)
  })

  it("a send's sign-in is served before a read's that was waiting first", async ({ expect }) => {
    const userId = await createCustomer()
    const [reader, sender] = await Promise.all([newXAccount(x), newXAccount(x)])
    const readerId = await createXAccount(userId, reader)
    const senderId = await createXAccount(userId, sender)
    const { db, pool, leases, sessions: shared } = suite.runner
    const opens = new Gate(1)
    const sessions = new SessionManager({ ...shared.options, db, pool, leases, opens, openWaitMs: 120_000 })
    try {
      const held = await opens.acquire(1_000)
      const signedIn: string[] = []
      const open = (accountId: string, priority: number) =>
        sessions.use(
          accountId,
          60_000,
          async (handle) => {
            const account = await loadAccount(db, accountId)
            if (!account) throw new Error('no account')
            const outcome = await handle.open(account)
            signedIn.push(account.username)
            return outcome.status
          },
          priority,
        )
      const read = open(readerId, 0)
      await waitFor('the read to wait for a sign-in slot', async () => opens.waiting === 1)
      const send = open(senderId, SEND_PRIORITY)
      await waitFor('the send to wait too', async () => opens.waiting === 2)
      expect(opens.waitingAbove(0)).toBe(1)
      held()
      expect(await send).toEqual({ status: 'done', value: 'ok' })
      expect(await read).toEqual({ status: 'done', value: 'ok' })
      expect(signedIn).toEqual([sender.username, reader.username])
    } finally {
      await sessions.closeAll(5_000)
    }
  })
})
