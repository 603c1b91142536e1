// A saved X session comes back without a full sign-in: after a runner restart (a second
// SessionManager on the same database), the account's next job restores the sealed session (its
// cookies, and the identity its last full sign-in saw) and loads no page for it; the job's own first
// page is the check. Against the X sandbox in real Chromium; the restore rules themselves are
// checked on plain values.
import { describe, it } from 'vitest'
import { encryptSecret } from '../src/crypto.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import { type SessionCookie, StopSignalError } from '../src/platforms/types.ts'
import { type AccountSecrets, loadSecrets, type SavedSession } from '../src/sessions/credentials.ts'
import { type AccountHandle, SessionManager } from '../src/sessions/manager.ts'
import { loadAccount } from '../src/sessions/open.ts'
import { RESTORE_WITHIN_MS, restorableSession } from '../src/sessions/restore.ts'
import { adminDb, createCustomer, createXAccount } from './helpers/fixtures.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const suite = browserSuite(x, 10_000)

/** A SessionManager of its own on the suite's database and browser: a runner of its own. */
function runnerSessions(): SessionManager {
  const { db, pool, leases, sessions } = suite.runner
  return new SessionManager({ ...sessions.options, db, pool, leases })
}

/** Opens the account in `sessions` and runs `work` on what the open gave. */
async function withOpened<T>(
  sessions: SessionManager,
  accountId: string,
  work: (opened: Awaited<ReturnType<AccountHandle['open']>>, handle: AccountHandle) => Promise<T>,
  check?: 'full',
): Promise<T> {
  const result = await sessions.use(accountId, 60_000, async (handle) => {
    const account = await loadAccount(suite.runner.db, accountId)
    if (!account) throw new Error('no account')
    return work(await handle.open(account, undefined, check), handle)
  })
  if (result.status !== 'done') throw new Error(`the account was busy ${result.where}`)
  return result.value
}

/** How many pages the session's browser context has open now. */
async function pagesOf(opened: Awaited<ReturnType<AccountHandle['open']>>): Promise<number> {
  if (opened.status !== 'ok') throw new Error(`the open failed: ${opened.message}`)
  const { context } = opened.session as unknown as { context: { context: { pages(): Promise<unknown[]> } } }
  return (await context.context.pages()).length
}

/**
 * A new account signed in once in full in a runner of its own, whose session was saved as that
 * runner closed it (as after its account test).
 */
async function connectedAccount() {
  const userId = await createCustomer()
  const sandbox = await newXAccount(x)
  const accountId = await createXAccount(userId, sandbox)
  const first = runnerSessions()
  try {
    const identity = await withOpened(first, accountId, async (opened) => {
      if (opened.status !== 'ok') throw new Error(opened.message)
      return { id: opened.session.user.id, username: opened.session.user.username }
    })
    return { sandbox, accountId, identity }
  } finally {
    await first.closeAll(5_000)
  }
}

describe('a saved session restored', BROWSER_SUITE, () => {
  it('after a restart, the next job restores the saved session and loads no page to do it; it sends', async ({
    expect,
  }) => {
    const [lead] = await suite.people(1)
    if (!lead) throw new Error('no profile')
    const { sandbox, accountId, identity } = await connectedAccount()
    expect(identity).toEqual({ id: sandbox.id, username: sandbox.username })

    const restarted = runnerSessions()
    try {
      const sent = await withOpened(restarted, accountId, async (opened) => {
        expect(opened).toMatchObject({ status: 'ok', restored: true })
        expect(await pagesOf(opened)).toBe(0)
        if (opened.status !== 'ok') throw new Error(opened.message)
        expect(opened.session.user).toMatchObject(identity)
        return opened.session.sendDm({ userId: lead.id }, 'Hello from a restored session')
      })
      expect(sent.status).toBe('sent')
      expect(restarted.restored).toBe(1)
      expect(restarted.opened).toBe(0)
      expect((await x.deliveries(sandbox.username)).map((d) => d.text)).toContain(
        'Hello from a restored session',
      )

      // the account test is the full check: it signs in in full even with a session to restore
      await restarted.closeAll(5_000)
      const full = runnerSessions()
      try {
        await withOpened(
          full,
          accountId,
          async (opened) => {
            expect(opened).toMatchObject({ status: 'ok' })
            expect(opened).not.toMatchObject({ restored: true })
            expect(await pagesOf(opened)).toBe(1)
          },
          'full',
        )
        expect(full.opened).toBe(1)
        expect(full.restored).toBe(0)
      } finally {
        await full.closeAll(5_000)
      }
    } finally {
      await restarted.closeAll(5_000)
    }
  })

  it('a restored session X has signed out stops at its first page, as a full sign-in would', async ({
    expect,
  }) => {
    const { sandbox, accountId } = await connectedAccount()
    await x.patchAccount(sandbox.username, { state: 'expired' })

    const restarted = runnerSessions()
    try {
      const error = await withOpened(restarted, accountId, async (opened) => {
        expect(opened).toMatchObject({ status: 'ok', restored: true })
        if (opened.status !== 'ok') throw new Error(opened.message)
        return opened.session.readInbox().then(
          () => null,
          (e: unknown) => e,
        )
      })
      expect(error).toBeInstanceOf(StopSignalError)
      expect((error as StopSignalError).signal).toMatchObject({ kind: 'unauthenticated' })
    } finally {
      await restarted.closeAll(5_000)
    }
  })

  it('an inbox sync of an account it can restore reads even while sends wait: it needs no sign-in', async ({
    expect,
  }) => {
    const { accountId } = await connectedAccount()
    await adminDb().query(
      `update public.social_accounts set last_synced_at = internal.now() - interval '5 minutes' where id = $1`,
      [accountId],
    )
    const { sessions } = suite.runner
    const before = { opened: sessions.opened, restored: sessions.restored }
    const sendsWait = { admission: { coldReadsWait: () => true } }
    expect(await inboxSync(suite.runner.context(sendsWait), { accountId })).toMatchObject({
      conversations: 0,
    })
    expect({ opened: sessions.opened, restored: sessions.restored }).toEqual({
      opened: before.opened,
      restored: before.restored + 1,
    })
  })
})

describe('when a saved session may be restored', () => {
  const now = Date.parse('2026-11-27T12:00:00Z')
  const cookie = (name: string, value: string): SessionCookie => ({
    name,
    value,
    domain: '.x.com',
    path: '/',
    httpOnly: true,
    secure: true,
  })
  const auth = (value: string) => cookie('auth_token', value)
  const cookies = [auth('a1'.repeat(20)), cookie('ct0', 'c1'.repeat(16)), cookie('twid', 'u%3D42')]
  const seen = { identity: { id: '42', username: 'shop', name: 'Shop' }, checkedAt: now - 60_000 }
  const secrets = (saved: Partial<SavedSession> | null, pasted = cookies): AccountSecrets => ({
    credentials: { v: 1, platform: 'twitter', cookies: pasted, chatPasscode: null },
    saved: saved ? { v: 1, cookies, savedAt: '', ...saved } : null,
  })

  it('within a day of a full sign-in that saw the same account, with the pasted session', ({ expect }) => {
    expect(restorableSession(secrets({ seen }), now)).toEqual(seen)
    const dayOld = { ...seen, checkedAt: now - RESTORE_WITHIN_MS }
    expect(restorableSession(secrets({ seen: dayOld }), now)).toEqual(dayOld)
  })

  it('never without a full sign-in on record, after a day, for other cookies or another account', ({
    expect,
  }) => {
    expect(restorableSession(secrets(null), now)).toBeNull()
    expect(restorableSession(secrets({}), now)).toBeNull()
    expect(
      restorableSession(secrets({ seen: { ...seen, checkedAt: now - RESTORE_WITHIN_MS - 1 } }), now),
    ).toBeNull()
    expect(restorableSession(secrets({ seen: { ...seen, checkedAt: now + 60_000 } }), now)).toBeNull()
    const otherPaste = [auth('a2'.repeat(20)), ...cookies.slice(1)]
    expect(restorableSession(secrets({ seen }, otherPaste), now)).toBeNull()
    expect(
      restorableSession(secrets({ seen: { ...seen, identity: { ...seen.identity, id: '43' } } }), now),
    ).toBeNull()
    const instagram: AccountSecrets = {
      credentials: { v: 1, platform: 'instagram', password: 'p', totpSecret: null },
      saved: { v: 1, cookies, savedAt: '', seen },
    }
    expect(restorableSession(instagram, now)).toBeNull()
  })

  it('what a full sign-in saw survives the sealed save', async ({ expect }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const { keyring } = suite.runner.sessions.options
    const sealed = encryptSecret(JSON.stringify({ v: 1, cookies, savedAt: 'x', seen }), keyring)
    await adminDb().query(
      'update public.social_account_credentials set session_ciphertext = $2 where account_id = $1',
      [accountId, sealed],
    )
    expect((await loadSecrets(suite.runner.db, accountId, keyring)).saved?.seen).toEqual(seen)
    const torn = encryptSecret(
      JSON.stringify({ v: 1, cookies, savedAt: 'x', seen: { checkedAt: 1 } }),
      keyring,
    )
    await adminDb().query(
      'update public.social_account_credentials set session_ciphertext = $2 where account_id = $1',
      [accountId, torn],
    )
    expect((await loadSecrets(suite.runner.db, accountId, keyring)).saved?.seen).toBeUndefined()
  })
})
