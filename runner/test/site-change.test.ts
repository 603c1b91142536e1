// A site change met by the job handlers, against the X sandbox's site-change drill (a renamed ready
// marker): nothing is sent, nothing twice, the lead and the customer's answer wait, the account keeps
// its status and trust (no breaker, no notification), and once the page is back everything goes
// out exactly once.
import { describe, it } from 'vitest'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
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
const suite = browserSuite(x, 7300)

const drill = (account: string) => x.call('POST', '/site-change', { account })
const drillOff = (account: string) =>
  fetch(`${x.base}/__sandbox/site-change?account=${encodeURIComponent(account)}`, { method: 'DELETE' })

describe.concurrent('a site change met by the jobs', BROWSER_SUITE, () => {
  it('a campaign tick sends nothing, blames nobody, waits, and later sends each DM once', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x)
    const accountId = await createXAccount(userId, sandbox)
    const before = await accountRow(accountId)
    const leads = await suite.people(2)
    const campaignId = await createCampaign(userId, accountId, leads)
    await drill(sandbox.username)
    try {
      const tick = await campaignTick(suite.runner.context(), { campaignId, accountId })
      expect(tick).toMatchObject({ site_changed: 1 })
      expect(tick.sent).toBeUndefined()
      expect(await x.deliveries(sandbox.username)).toHaveLength(0)
      // one lead tried (nothing sent: its step's log says so), back to pending with a backoff; the tick stopped there
      const logs = await logsOf(campaignId)
      expect(logs.map((l) => l.status)).toEqual(['failed'])
      const tried = (await leadsOf(campaignId)).find((l) => l.username === logs[0]?.target_username)
      expect(tried?.state).toBe('pending')
      expect(tried?.next_send_at?.getTime() ?? 0).toBeGreaterThan(Date.now())
      const { rows } = await adminDb().query<{ in_s: number }>(
        'select extract(epoch from next_action_at - internal.now())::float8 as in_s from public.campaigns where id = $1',
        [campaignId],
      )
      expect(rows[0]?.in_s).toBeGreaterThan(240)
      const after = await accountRow(accountId)
      expect([after.status, after.trust_score, after.flag_reason]).toEqual([
        before.status,
        before.trust_score,
        before.flag_reason,
      ])
      expect((await notificationsOf(userId)).filter((n) => n.type === 'account_flagged')).toEqual([])
    } finally {
      await drillOff(sandbox.username)
    }
    // the page is back: the waiting lead's backoff passes, and every lead gets exactly one DM
    await adminDb().query(
      `update public.campaign_leads set next_send_at = internal.now() where campaign_id = $1 and state = 'pending'`,
      [campaignId],
    )
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(2)
    const delivered = await x.deliveries(sandbox.username)
    expect(delivered.map((d) => d.recipientUsername).sort()).toEqual(leads.map((l) => l.username).sort())
    expect((await logsOf(campaignId)).map((l) => l.status)).toEqual(['sent', 'sent'])
  })

  it('an inbox answer met by a changed page goes back to the queue, then goes out once', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [lead] = await suite.people(1)
    if (!lead) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [lead])
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(1)
    await x.message({ account: sandbox.username, from: lead.username, text: 'Tell me more' })
    await inboxSync(suite.runner.context(), { accountId })
    const { rows: threads } = await adminDb().query<{ id: string }>(
      'select id from public.inbox_threads where account_id = $1',
      [accountId],
    )
    const answer = 'Here is more, gladly.'
    await adminDb().query(
      `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
       values ($1, $2, $3, 'outgoing', $4, 'reachflow', 'queued', 'reply:site-change')`,
      [threads[0]?.id, userId, accountId, answer],
    )
    const status = async () =>
      (
        await adminDb().query<{ status: string; error: string | null }>(
          `select status, error from public.inbox_messages where account_id = $1 and body = $2`,
          [accountId, answer],
        )
      ).rows[0]
    await drill(sandbox.username)
    try {
      const sync = await inboxSync(suite.runner.context(), { accountId }).catch((e: unknown) => e)
      // the answer waits; the rest of the sync met the same changed page and failed to be retried
      expect(sync).toMatchObject({ name: 'LayoutChangedError' })
      expect(await status()).toEqual({ status: 'queued', error: null })
      expect((await accountRow(accountId)).status).toBe('active')
    } finally {
      await drillOff(sandbox.username)
    }
    expect((await inboxSync(suite.runner.context(), { accountId })).answersSent).toBe(1)
    expect(await status()).toMatchObject({ status: 'sent' })
    expect((await x.deliveries(sandbox.username)).filter((d) => d.text === answer)).toHaveLength(1)
  })
})
