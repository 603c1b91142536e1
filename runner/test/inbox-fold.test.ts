// Inbox reads folded into campaign ticks, against the X sandbox in Chromium: a tick that sends also
// reads the inbox in the session it holds (the reply recorded, its follow-up stopped, the read
// recorded), after which the scheduler has no separate sync to queue and a sync queued before ends
// without opening the account; a folded read that fails never costs the tick its sends.
import { describe, it } from 'vitest'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import { adminDb, createCampaign, createCustomer, createXAccount, leadsOf } from './helpers/fixtures.ts'
import type { SandboxProfile } from './helpers/sandbox.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { tickUntilSent } from './helpers/ticks.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const suite = browserSuite(x, 3000)
const { people } = suite

async function addLead(campaignId: string, lead: Pick<SandboxProfile, 'id' | 'username' | 'name'>) {
  await adminDb().query(
    `insert into public.campaign_leads (campaign_id, username, profile_data)
     values ($1, $2, jsonb_build_object('platform_id', $3::text, 'display_name', $4::text))`,
    [campaignId, lead.username, lead.id, lead.name],
  )
}

async function readAgo(accountId: string, minutes: number) {
  await adminDb().query(
    `update public.social_accounts set last_synced_at = internal.now() - make_interval(mins => $2) where id = $1`,
    [accountId, minutes],
  )
}

/** Whether the scheduler's rule would queue an inbox.sync for the account now. */
async function syncDue(accountId: string): Promise<boolean> {
  const { rowCount } = await adminDb().query(
    'select 1 from internal.inbox_syncs_due(internal.now()) d where d.account_id = $1',
    [accountId],
  )
  return rowCount === 1
}

describe.concurrent('inbox reads folded into campaign ticks', BROWSER_SUITE, () => {
  it('a tick that sends records the read and the reply; no separate sync is queued, and one queued before ends without the session', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [keen, quiet, late] = await people(3)
    if (!keen || !quiet || !late) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [keen, quiet], {
      followUpMessages: ['Just bumping this, {name}.'],
    })
    // the first DMs are set-up: a DM a loaded machine defers goes in the next tick
    await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 2)
    await x.message({ account: sandbox.username, from: keen.username, text: 'Yes, tell me more' })
    await addLead(campaignId, late)
    await readAgo(accountId, 15)
    // the scheduler queues a sync now (queue times are database time)
    expect(await syncDue(accountId)).toBe(true)
    const queued = await adminDb().query<{ at: Date }>('select now() as at')
    const queuedAt = queued.rows[0]?.at

    const tick = await campaignTick(suite.runner.context(), { campaignId, accountId })
    expect(tick).toMatchObject({ sent: 1, readInbox: true, replies: 1 })
    const leads = await leadsOf(campaignId)
    const keenRow = leads.find((l) => l.username === keen.username)
    expect(keenRow?.replied_at).not.toBeNull()
    expect(keenRow?.next_send_at).toBeNull()
    expect(leads.find((l) => l.username === quiet.username)?.next_send_at).not.toBeNull()
    const db = adminDb()
    const { rows } = await db.query<{ fresh: boolean }>(
      `select last_synced_at > internal.now() - interval '1 minute' as fresh from public.social_accounts where id = $1`,
      [accountId],
    )
    expect(rows[0]?.fresh).toBe(true)
    expect(
      (
        await db.query(
          'select 1 from public.inbox_threads where account_id = $1 and lower(peer_username) = lower($2)',
          [accountId, keen.username],
        )
      ).rowCount,
    ).toBe(1)

    expect(await syncDue(accountId)).toBe(false)
    // that sync, queued before the tick's read, ends before taking the session
    const sync = await inboxSync(suite.runner.context({ queuedAt }), { accountId })
    expect(sync).toEqual({ readRecently: true, note: expect.any(String) })

    // "Check now" after the tick's read is the customer asking: that sync reads
    await db.query(
      `insert into public.inbox_check_requests (account_id, user_id, requested_at) values ($1, $2, internal.now())`,
      [accountId, userId],
    )
    const checked = await inboxSync(suite.runner.context({ queuedAt }), { accountId })
    expect(checked.readRecently).toBeUndefined()
    expect(checked.conversations).toBeGreaterThanOrEqual(3)
  })

  it('a folded read that fails leaves the sends alone, and the scheduled sync reads instead', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [first, second] = await people(2)
    if (!first || !second) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [first])
    await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 1)
    await addLead(campaignId, second)
    await readAgo(accountId, 15)
    // X Chat's inbox list answers 500 once: its page says "Something went wrong"
    await x.fault({
      account: sandbox.username,
      target: 'api',
      mode: 'http_500',
      path: '/i/api/1.1/xchat/inbox.json',
    })

    const tick = await campaignTick(suite.runner.context(), { campaignId, accountId })
    // X's "Something went wrong" page: neither an account stop nor a site change, and the tick goes
    // on to its lead (a loaded machine may defer that DM for a slow page: the next tick sends it)
    expect(tick).toMatchObject({
      ...(tick.deferred ? { deferred: 1 } : { sent: 1 }),
      inboxReadFailed: expect.stringMatching(/something went wrong/i),
    })
    expect(tick.readInbox).toBeUndefined()
    expect(tick.account_stopped).toBeUndefined()
    const { rows } = await adminDb().query<{ status: string }>(
      'select status from public.social_accounts where id = $1',
      [accountId],
    )
    expect(rows[0]?.status).toBe('active')
    expect(await syncDue(accountId)).toBe(true)
    if (tick.deferred) await tickUntilSent(() => suite.runner.context(), { campaignId, accountId }, 1)
  })
})
