// The Conversations inbox in the runner: inbox.sync stores the whole thread of a lead who
// replied, the same thread synced again adds nothing, the "New reply" notification points at it,
// and the customer's answer is sent once through the account's next sync, its status confirmed.
import { describe, it } from 'vitest'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import {
  adminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  notificationsOf,
} from './helpers/fixtures.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const suite = browserSuite(x, 13_000)

async function threadOf(accountId: string, peer: string) {
  const { rows } = await adminDb().query<{
    id: string
    unread_count: number
    status: string
    campaign_id: string
  }>(
    'select id, unread_count, status, campaign_id from public.inbox_threads where account_id = $1 and peer_username = $2',
    [accountId, peer],
  )
  return rows[0]
}

async function messagesOf(threadId: string) {
  const { rows } = await adminDb().query<{ direction: string; body: string; status: string; origin: string }>(
    `select direction, body, status, origin from public.inbox_messages where thread_id = $1
      order by coalesce(sent_at, created_at), created_at`,
    [threadId],
  )
  return rows
}

describe.concurrent('conversations inbox', BROWSER_SUITE, () => {
  it('stores the whole thread once, and sends the customer answer exactly once', async ({ expect }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [lead, quiet] = await suite.people(2)
    if (!lead || !quiet) throw new Error('no leads')
    const campaignId = await createCampaign(userId, accountId, [lead, quiet], {
      messages: ['Hi {name}, quick question about your work?'],
    })
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(2)

    await x.message({ account: sandbox.username, from: lead.username, text: 'Sure, what is it?' })
    await x.message({ account: sandbox.username, from: lead.username, text: 'Also: who are you?' })
    await inboxSync(suite.runner.context(), { accountId })

    const thread = await threadOf(accountId, lead.username)
    expect(thread).toMatchObject({ unread_count: 2, status: 'open', campaign_id: campaignId })
    const first = await messagesOf(thread?.id ?? '')
    expect(first.map((m) => [m.direction, m.body])).toEqual([
      ['outgoing', expect.stringMatching(/^Hi .+, quick question about your work\?$/)],
      ['incoming', 'Sure, what is it?'],
      ['incoming', 'Also: who are you?'],
    ])
    expect(await threadOf(accountId, quiet.username)).toBeUndefined()
    const note = (await notificationsOf(userId)).find((n) => n.type === 'lead_replied')
    expect(note?.metadata).toMatchObject({ threadId: thread?.id })

    // synced again: nothing new
    await inboxSync(suite.runner.context(), { accountId })
    expect(await messagesOf(thread?.id ?? '')).toEqual(first)

    // the customer answers; the account's next sync sends it once and confirms it
    await adminDb().query(
      `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
       values ($1, $2, $3, 'outgoing', 'We build outreach tools. Want a demo?', 'reachflow', 'queued', 'reply:test')`,
      [thread?.id, userId, accountId],
    )
    const result = await inboxSync(suite.runner.context(), { accountId })
    expect(result.answersSent).toBe(1)
    await inboxSync(suite.runner.context(), { accountId })
    const answered = (await x.deliveries(sandbox.username)).filter(
      (d) => d.text === 'We build outreach tools. Want a demo?',
    )
    expect(answered).toHaveLength(1)
    expect(answered[0]?.recipientUsername).toBe(lead.username)
    const after = await messagesOf(thread?.id ?? '')
    expect(after).toHaveLength(4)
    expect(after.at(-1)).toMatchObject({
      direction: 'outgoing',
      body: 'We build outreach tools. Want a demo?',
      status: 'sent',
      origin: 'reachflow',
    })
  })

  it('an answer whose acknowledgement was lost is proven from the thread read again, never retyped; a refused one fails with the reason', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [lead] = await suite.people(1)
    if (!lead) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [lead])
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(1)
    await x.message({ account: sandbox.username, from: lead.username, text: 'Who is this?' })
    await inboxSync(suite.runner.context(), { accountId })
    const thread = await threadOf(accountId, lead.username)
    const answer = async (body: string) => {
      await adminDb().query(
        `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
         values ($1, $2, $3, 'outgoing', $4, 'reachflow', 'queued', 'reply:' || gen_random_uuid())`,
        [thread?.id, userId, accountId, body],
      )
    }
    const statusOf = async (body: string) =>
      (
        await adminDb().query<{ status: string; error: string | null }>(
          'select status, error from public.inbox_messages where thread_id = $1 and body = $2',
          [thread?.id, body],
        )
      ).rows

    await answer('A studio that builds outreach tools.')
    await x.fault({ account: sandbox.username, target: 'send', mode: 'ack_lost' })
    const lost = await inboxSync(suite.runner.context(), { accountId })
    // X never answered the send, but the thread read again shows our row with the text: sent
    expect(lost).toMatchObject({ answersSent: 1, answersUncertain: 0 })
    expect(await statusOf('A studio that builds outreach tools.')).toEqual([{ status: 'sent', error: null }])
    await inboxSync(suite.runner.context(), { accountId })
    const delivered = (await x.deliveries(sandbox.username)).filter(
      (d) => d.text === 'A studio that builds outreach tools.',
    )
    expect(delivered).toHaveLength(1)

    await answer('Are you still there?')
    await x.fault({ account: sandbox.username, target: 'send', mode: 'error', code: 349 })
    expect((await inboxSync(suite.runner.context(), { accountId })).answersFailed).toBe(1)
    const [refused] = await statusOf('Are you still there?')
    expect(refused?.status).toBe('failed')
    expect(refused?.error).toMatch(/349/)
    expect((await x.deliveries(sandbox.username)).filter((d) => d.text === 'Are you still there?')).toEqual(
      [],
    )
  })

  it('a reply the customer already read on X (another device) is recorded, not unread, and stops the follow-up; a later one is new, the older not again', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [lead] = await suite.people(1)
    if (!lead) throw new Error('no lead')
    const campaignId = await createCampaign(userId, accountId, [lead], {
      followUpMessages: ['Just bumping this.'],
      followUpDays: 1,
    })
    expect((await campaignTick(suite.runner.context(), { campaignId, accountId })).sent).toBe(1)
    // the DM went out a while ago: a reply now is not one the runner's page could have read
    await adminDb().query(
      `update public.dm_logs set sent_at = sent_at - interval '10 minutes' where campaign_id = $1`,
      [campaignId],
    )
    const { threadId } = await x.message({
      account: sandbox.username,
      from: lead.username,
      text: 'Saw it, thanks',
    })
    // the customer opens the conversation on X (their phone) before Reachflow's next sync
    await x.call('POST', '/threads/read', { account: sandbox.username, threadId })

    await inboxSync(suite.runner.context(), { accountId })
    const thread = await threadOf(accountId, lead.username)
    expect(thread?.unread_count).toBe(0)
    const { rows } = await adminDb().query<{ read_on_platform: boolean }>(
      `select read_on_platform from public.inbox_messages where thread_id = $1 and direction = 'incoming'`,
      [thread?.id],
    )
    expect(rows).toEqual([{ read_on_platform: true }])
    // the lead replied: its follow-up is off, whatever device the reply was read on
    const replied = await adminDb().query<{
      replied_at: Date | null
      reply_text: string | null
      next_send_at: Date | null
    }>('select replied_at, reply_text, next_send_at from public.campaign_leads where campaign_id = $1', [
      campaignId,
    ])
    expect(replied.rows).toEqual([
      { replied_at: expect.any(Date), reply_text: 'Saw it, thanks', next_send_at: null },
    ])

    await x.message({ account: sandbox.username, from: lead.username, text: 'One more question' })
    await inboxSync(suite.runner.context(), { accountId })
    expect((await threadOf(accountId, lead.username))?.unread_count).toBe(1)
    // the older reply is stored once: not reported as new again
    expect(
      (await messagesOf(thread?.id ?? '')).filter((m) => m.direction === 'incoming').map((m) => m.body),
    ).toEqual(['Saw it, thanks', 'One more question'])
  })

  it('a reply that reads like the last one ("ok" twice), already read on X, is found by its row moving up the list', async ({
    expect,
  }) => {
    const userId = await createCustomer()
    // the harder reading of the live inbox: rows with no time label, so no row is dated
    const sandbox = await newXAccount(x, { behaviour: { replyShare: 0, inboxRowTimes: 0 } })
    const accountId = await createXAccount(userId, sandbox)
    const [lead, other] = await suite.people(2)
    if (!lead || !other) throw new Error('no leads')
    await createCampaign(userId, accountId, [lead, other]).then((campaignId) =>
      campaignTick(suite.runner.context(), { campaignId, accountId }),
    )
    // our DM went out minutes before each reply (here within the minute, and a label dates a reply
    // only to its minute): the stored conversation's last message is then the reply, as the list shows
    const dmEarlier = async (peer: string) => {
      const stored = await threadOf(accountId, peer)
      await adminDb().query(
        `update public.inbox_messages set sent_at = sent_at - interval '10 minutes' where thread_id = $1 and direction = 'outgoing'`,
        [stored?.id],
      )
      await adminDb().query('select internal.refresh_inbox_thread($1)', [stored?.id])
    }
    await x.message({ account: sandbox.username, from: lead.username, text: 'ok' })
    await inboxSync(suite.runner.context(), { accountId })
    await dmEarlier(lead.username)
    // the other lead writes later: their row stands above the lead's at this read
    await x.message({ account: sandbox.username, from: other.username, text: 'Thanks!' })
    await inboxSync(suite.runner.context(), { accountId })
    await dmEarlier(other.username)
    const thread = await threadOf(accountId, lead.username)
    const { rows: previews } = await adminDb().query<{ preview: string }>(
      'select last_message_preview as preview from public.inbox_threads where account_id = $1 order by preview',
      [accountId],
    )
    expect(previews).toEqual([{ preview: 'Thanks!' }, { preview: 'ok' }])

    // "ok" again, opened on the customer's phone: not unread, no date, the preview stored before
    const { threadId } = await x.message({ account: sandbox.username, from: lead.username, text: 'ok' })
    await x.call('POST', '/threads/read', { account: sandbox.username, threadId })
    await inboxSync(suite.runner.context(), { accountId })
    expect(
      (await messagesOf(thread?.id ?? '')).filter((m) => m.direction === 'incoming').map((m) => m.body),
    ).toEqual(['ok', 'ok'])
    // the other conversation did not move up: it holds nothing new and was not read again
    const otherThread = await threadOf(accountId, other.username)
    expect(
      (await messagesOf(otherThread?.id ?? '')).filter((m) => m.direction === 'incoming').map((m) => m.body),
    ).toEqual(['Thanks!'])
  })

  it('an answer on a day the account has used its cap is not sent, and says why; the cap is the one the campaign DMs use', async ({
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
    const thread = await threadOf(accountId, lead.username)
    // the account's own limit below its warm-up limit, used up on the account's own day
    const { rows } = await adminDb().query<{ cap: number }>(
      `update public.social_accounts a set daily_message_limit = 2, messages_sent_today = 2,
              sent_today_on = pg_catalog.timezone(a.timezone, internal.now())::date
        from public.platforms p where a.id = $1 and p.id = a.platform_id
        returning internal.account_daily_cap(a, p) as cap`,
      [accountId],
    )
    expect(rows[0]?.cap).toBe(2)
    await adminDb().query(
      `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
       values ($1, $2, $3, 'outgoing', 'Happy to explain on a call.', 'reachflow', 'queued', 'reply:' || gen_random_uuid())`,
      [thread?.id, userId, accountId],
    )
    await inboxSync(suite.runner.context(), { accountId })
    const { rows: answers } = await adminDb().query<{ status: string; error: string | null }>(
      `select status, error from public.inbox_messages where thread_id = $1 and body = 'Happy to explain on a call.'`,
      [thread?.id],
    )
    expect(answers).toEqual([
      {
        status: 'failed',
        error: `@${sandbox.username} has reached today's limit of 2 messages. Nothing was sent; send it again tomorrow.`,
      },
    ])
    const sent = (await x.deliveries(sandbox.username)).filter(
      (d) => d.text === 'Happy to explain on a call.',
    )
    expect(sent).toHaveLength(0)
  })
})
