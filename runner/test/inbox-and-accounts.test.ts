// inbox.sync, account.test and warmup.step against the sandboxes in Chromium: replies mark leads
// replied (follow-ups stop, responses counted, the customer told once), opt-outs go to
// do-not-contact, requests are counted; account tests set the status, last login, the platform id
// and a saved (encrypted) session, or say what is wrong; warm-up browses and builds trust.
import { describe, it } from 'vitest'
import { decryptSecret, keyringFromEnv } from '../src/crypto.ts'
import { accountTest } from '../src/jobs/account-test.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import { warmupStep } from '../src/jobs/warmup-step.ts'
import {
  accountRow,
  adminDb,
  createCampaign,
  createCustomer,
  createInstagramAccount,
  createXAccount,
  leadsOf,
  notificationsOf,
} from './helpers/fixtures.ts'
import { type IgSandboxAccount, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { tickUntilSent } from './helpers/ticks.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const suite = browserSuite(x, 9000)
const { people } = suite

async function savedSession(accountId: string): Promise<{ cookies: { name: string }[] } | null> {
  const { rows } = await adminDb().query<{ session_ciphertext: string | null }>(
    'select session_ciphertext from public.social_account_credentials where account_id = $1',
    [accountId],
  )
  const sealed = rows[0]?.session_ciphertext
  return sealed ? JSON.parse(decryptSecret(sealed, keyringFromEnv())) : null
}

describe.concurrent('inbox.sync', BROWSER_SUITE, () => {
  it('records replies, stops their follow-ups, honours "stop", counts requests, and tells the customer once', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    // never read before: its first read (folded into the tick) reads the message requests too
    const accountId = await createXAccount(userId, sandbox, { lastReadMinutesAgo: null })
    const [keen, stopper, quiet] = await people(3)
    if (!keen || !stopper || !quiet) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [keen, stopper, quiet], {
      followUpMessages: ['Just bumping this, {name}.'],
    })
    const [stranger] = await people(1)
    await x.message({
      account: sandbox.username,
      from: stranger?.username ?? '',
      text: 'Hi, saw your profile',
    })
    // the sends are not this test's subject: a DM a loaded machine defers goes in the next tick,
    // and a failure prints every tick's whole result (a tick that sent nothing says why in its note)
    await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 3)

    await x.message({ account: sandbox.username, from: keen.username, text: 'Interesting, tell me more!' })
    await x.message({ account: sandbox.username, from: stopper.username, text: 'STOP' })

    const result = await inboxSync(suite.runner.context(), { accountId })
    // the tick read the requests just now: they wait for their cadence
    expect(result).toMatchObject({ replies: 2, optOuts: 1, requests: null })
    const leads = await leadsOf(campaignId)
    const byName = (name: string) => leads.find((l) => l.username === name)
    expect(byName(keen.username)).toMatchObject({ next_send_at: null })
    expect(byName(keen.username)?.replied_at).not.toBeNull()
    expect(byName(stopper.username)?.replied_at).not.toBeNull()
    expect(byName(quiet.username)?.replied_at).toBeNull()
    expect(byName(quiet.username)?.next_send_at).not.toBeNull()
    const db = adminDb()
    const campaign = await db.query('select response_count from public.campaigns where id = $1', [campaignId])
    expect(campaign.rows[0]?.response_count).toBe(2)
    const optOuts = await db.query('select target_username from public.do_not_contact where user_id = $1', [
      userId,
    ])
    expect(optOuts.rows.map((r) => r.target_username)).toEqual([stopper.username])
    const account = await accountRow(accountId)
    expect(account.requests_pending).toBe(1)
    expect(account.last_synced_at).not.toBeNull()

    // a second sync changes nothing
    await inboxSync(suite.runner.context(), { accountId })
    const notes = (await notificationsOf(userId)).filter((n) => n.type === 'lead_replied')
    expect(notes).toHaveLength(2)
    expect(notes.map((n) => n.message).join('\n')).toContain('Interesting, tell me more!')
    expect(
      (await db.query('select response_count from public.campaigns where id = $1', [campaignId])).rows[0]
        ?.response_count,
    ).toBe(2)
  })
})

describe.concurrent('inbox.sync in a shared workspace', BROWSER_SUITE, () => {
  it("records a reply to a teammate's campaign in the account's workspace: lead, notice and opt-out", async ({
    expect,
  }) => {
    const db = adminDb()
    const ownerId = await createCustomer()
    const teammateId = await createCustomer()
    // the teammate edits in the owner's workspace (the owner's id is their personal workspace's)
    await db.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'editor')`,
      [ownerId, teammateId],
    )
    await db.query('update public.user_profiles set active_workspace_id = $1 where id = $2', [
      ownerId,
      teammateId,
    ])
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(ownerId, sandbox, { lastReadMinutesAgo: null })
    const [stopper] = await people(1)
    if (!stopper) throw new Error('no leads')
    const campaignId = await createCampaign(teammateId, accountId, [stopper])
    await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 1)

    await x.message({ account: sandbox.username, from: stopper.username, text: 'STOP' })
    expect(await inboxSync(suite.runner.context(), { accountId })).toMatchObject({ replies: 1, optOuts: 1 })
    expect((await leadsOf(campaignId))[0]?.replied_at).not.toBeNull()
    const inWorkspace = async (table: string) =>
      (await db.query(`select count(*)::int as n from public.${table} where workspace_id = $1`, [ownerId]))
        .rows[0]?.n
    expect(await inWorkspace('do_not_contact')).toBe(1)
    expect(
      (
        await db.query(
          `select count(*)::int as n from public.notifications where workspace_id = $1 and type = 'lead_replied'`,
          [ownerId],
        )
      ).rows[0]?.n,
    ).toBe(1)
  })
})

describe.concurrent('replies read by a campaign tick', BROWSER_SUITE, () => {
  it('a tick holding the session reads new replies when the last read is a few minutes old, not sooner', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox, { lastReadMinutesAgo: null })
    const [keen, quiet] = await people(2)
    if (!keen || !quiet) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [keen, quiet], {
      followUpMessages: ['Just bumping this, {name}.'],
    })
    // never read before: the first tick read the inbox, then sent (a DM a loaded machine defers
    // goes in the next tick)
    const [first] = await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 2)
    expect(first).toMatchObject({ readInbox: true })
    await x.message({
      account: sandbox.username,
      from: keen.username,
      text: 'Sounds good, when can we talk?',
    })
    const db = adminDb()
    const readAgo = (minutes: number) =>
      db.query(
        `update public.social_accounts set last_synced_at = internal.now() - make_interval(mins => $2) where id = $1`,
        [accountId, minutes],
      )

    // read a minute ago: the tick leaves the inbox to the next read
    await readAgo(1)
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).readInbox).toBeUndefined()
    expect((await leadsOf(campaignId)).find((l) => l.username === keen.username)?.replied_at).toBeNull()

    // read four minutes ago: the tick reads, the reply is recorded, its follow-up stops, the customer is told
    await readAgo(4)
    const second = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(second).toMatchObject({ readInbox: true, replies: 1 })
    const leads = await leadsOf(campaignId)
    expect(leads.find((l) => l.username === keen.username)).toMatchObject({ next_send_at: null })
    expect(leads.find((l) => l.username === keen.username)?.replied_at).not.toBeNull()
    expect(leads.find((l) => l.username === quiet.username)?.next_send_at).not.toBeNull()
    expect((await notificationsOf(userId)).filter((n) => n.type === 'lead_replied')).toHaveLength(1)
    const { rows } = await db.query<{ fresh: boolean }>(
      `select last_synced_at > internal.now() - interval '1 minute' as fresh from public.social_accounts where id = $1`,
      [accountId],
    )
    expect(rows[0]?.fresh).toBe(true)
    // the conversation is in the inbox
    const threads = await db.query(
      'select 1 from public.inbox_threads where account_id = $1 and lower(peer_username) = lower($2)',
      [accountId, keen.username],
    )
    expect(threads.rowCount).toBe(1)
  })
})

describe.concurrent('account.test', BROWSER_SUITE, () => {
  it('X: signs in with the cookies, unlocks X Chat, and saves the session encrypted', async ({ expect }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { passcode: '4321' })
    const accountId = await createXAccount(userId, sandbox, { status: 'testing' })
    const result = await accountTest(suite.runner.context(), { accountId })
    expect(result.status).toBe('active')
    const account = await accountRow(accountId)
    expect(account).toMatchObject({ status: 'active', platform_user_id: sandbox.id, flag_reason: null })
    expect(account.last_login_at).not.toBeNull()
    expect(Number(account.trust_score)).toBeGreaterThan(0.5)
    expect((await savedSession(accountId))?.cookies.map((c) => c.name)).toEqual(
      expect.arrayContaining(['auth_token', 'ct0']),
    )
  })

  it('X: expired cookies, a locked account and a wrong passcode each say what is wrong', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const expired = await createXAccount(userId, await newXAccount(x, { state: 'expired' }), {
      status: 'testing',
    })
    const locked = await createXAccount(userId, await newXAccount(x, { state: 'locked' }), {
      status: 'testing',
    })
    const wrongPin = await newXAccount(x, { passcode: '1111' })
    const wrongPinId = await createXAccount(userId, { ...wrongPin, passcode: '2222' }, { status: 'testing' })
    await accountTest(suite.runner.context(), { accountId: expired })
    await accountTest(suite.runner.context(), { accountId: locked })
    await accountTest(suite.runner.context(), { accountId: wrongPinId })
    expect((await accountRow(expired)).status).toBe('error')
    expect((await accountRow(locked)).status).toBe('flagged')
    expect(await accountRow(wrongPinId)).toMatchObject({ status: 'error' })
    expect((await accountRow(wrongPinId)).flag_reason).toMatch(/passcode/i)
    expect((await notificationsOf(userId)).map((n) => n.type)).toEqual([
      'account_flagged',
      'account_flagged',
      'account_flagged',
    ])
  })

  it('Instagram: logs in with password and TOTP, saves the session, and reuses it next time', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await ig.createAccount<IgSandboxAccount>({})
    const accountId = await createInstagramAccount(userId, sandbox, { status: 'testing' })
    expect((await accountTest(suite.runner.context(), { accountId })).status).toBe('active')
    expect((await savedSession(accountId))?.cookies.map((c) => c.name)).toContain('sessionid')
    // the next fresh password login would meet a checkpoint: the second test must reuse the session
    await ig.patchAccount(sandbox.username, { challenge: 'next' })
    expect((await accountTest(suite.runner.context(), { accountId })).status).toBe('active')
    expect((await accountRow(accountId)).status).toBe('active')
  })

  it('Instagram: a wrong password and a checkpoint need the customer', async ({ expect }) => {
    const userId = await createCustomer()
    const wrong = await ig.createAccount<IgSandboxAccount>({})
    const wrongId = await createInstagramAccount(
      userId,
      { ...wrong, password: 'not-the-password' },
      { status: 'testing' },
    )
    const checkpoint = await ig.createAccount<IgSandboxAccount>({ challenge: 'always' })
    const checkpointId = await createInstagramAccount(userId, checkpoint, { status: 'testing' })
    await accountTest(suite.runner.context(), { accountId: wrongId })
    await accountTest(suite.runner.context(), { accountId: checkpointId })
    expect((await accountRow(wrongId)).status).toBe('error')
    expect((await accountRow(checkpointId)).status).toBe('flagged')
  })

  it('a flagged account that works again is active; a paused one stays paused', async ({ expect }) => {
    const userId = await createCustomer()
    const flagged = await createXAccount(userId, await newXAccount(x), { status: 'flagged' })
    const paused = await createXAccount(userId, await newXAccount(x), { status: 'paused' })
    await adminDb().query(
      `update public.social_accounts set paused_until = now() + interval '1 hour' where id = $1`,
      [paused],
    )
    await accountTest(suite.runner.context(), { accountId: flagged })
    await accountTest(suite.runner.context(), { accountId: paused })
    expect((await accountRow(flagged)).status).toBe('active')
    expect((await accountRow(paused)).status).toBe('paused')
  })
})

describe.concurrent('warmup.step', BROWSER_SUITE, () => {
  it('browses like a person on X and Instagram and raises the trust score', async ({ expect }) => {
    const userId = await createCustomer()
    const xAccount = await createXAccount(userId, await newXAccount(x), { warmupPhase: 1 })
    const igAccount = await createInstagramAccount(userId, await ig.createAccount<IgSandboxAccount>({}), {
      warmupPhase: 2,
    })
    const [onX, onIg] = await Promise.all([
      warmupStep(suite.runner.context(), { accountId: xAccount }),
      warmupStep(suite.runner.context(), { accountId: igAccount }),
    ])
    expect(onX.pages).toBeGreaterThanOrEqual(2)
    expect(onIg.pages).toBeGreaterThanOrEqual(2)
    expect(Number((await accountRow(xAccount)).trust_score)).toBeCloseTo(0.52)
    const logs = await adminDb().query(
      `select count(*)::int as n from public.system_logs where service = 'warmup' and metadata ->> 'accountId' = any($1)`,
      [[xAccount, igAccount]],
    )
    expect(logs.rows[0]?.n).toBe(2)
  })
})
