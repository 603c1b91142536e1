// At most once, on every platform and for everything the runner sends: one table of sending cases
// run in Chromium against the X and the Instagram sandbox, each for a campaign DM (the real
// campaign.tick) and, where it applies, for the customer's answer from the inbox (the real
// inbox.sync), since both go through one send engine. Each case counts the DMs in the sandbox's own
// delivery log, not only our rows: a send that succeeds is recorded once; a page that fails before
// send was pressed sends nothing, costs the account no trust, and a later attempt is delivered
// once; a failure after send was pressed is `uncertain`, never resent blindly, and settled by
// reading the thread (delivered → sent; missing → not sent: a campaign step is sent again once with
// the same text, an answer is shown failed for the customer to send again); a runner that died
// mid-send leaves a row `sending` that is checked in the thread before anything else; two jobs for
// the same sends at once send one DM. The official Instagram account's sends go through the same
// engine with the Instagram API channel instead of a page: its table runs against the Meta
// sandbox's Send API, from Meta's answer to the engine's outcome, what the recorder is told, and
// what happens to the account (nothing to its trust or status: it has no warm-up or breaker).
import { afterAll, beforeAll, describe, it } from 'vitest'
import { testInt } from '../../stack/src/test-seed.ts'
import { BREAKER } from '../src/accounts/status.ts'
import { keyringFromEnv } from '../src/crypto.ts'
import { createDb } from '../src/db.ts'
import { campaignTick } from '../src/jobs/campaign-tick.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import { Logger } from '../src/log.ts'
import { NO_PAGE, officialSending } from '../src/official/instagram-sending.ts'
import { officialAccessToken } from '../src/platforms/instagram-api/channel.ts'
import type { StopKind } from '../src/platforms/types.ts'
import { type SendOutcome, sendClaimed } from '../src/sending/engine.ts'
import { claimIntent, nextDueLead } from '../src/sending/intent.ts'
import { loadAccount } from '../src/sessions/open.ts'
import {
  accountRow,
  adminDb,
  createCampaign,
  createCustomer,
  createInstagramAccount,
  createXAccount,
  env,
  leadsOf,
  logsOf,
} from './helpers/fixtures.ts'
import { connectedAccount, controlOf, type MetaSandbox, startSandbox } from './helpers/meta-official.ts'
import {
  type IgSandboxAccount,
  openProfiles,
  SandboxAdmin,
  type SandboxProfile,
  sandboxUrl,
} from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

interface Platform {
  name: 'X' | 'Instagram'
  /** Our name for it in the database. */
  id: 'twitter' | 'instagram'
  admin: SandboxAdmin
  /** Where the sandbox serves the DM pages (a page fault there stops the send before it is typed). */
  dmPages: string
  /**
   * What the tick makes of a DM that went out while the answer to send was lost or an error: X's
   * adapter cannot confirm it in the same tick (uncertain, settled by reading the thread on the
   * next); Instagram's re-reads the thread's own JSON after send and finds it there at once.
   */
  /** What a send that went out shows at once: X proves an unanswered one from the thread read again. */
  deliveredWithoutAnswer: Record<'ack_lost' | 'error_after_delivery', 'uncertain' | 'sent'>
  /** A sandbox account, signed in, as the customer's account; answers the sandbox username. */
  connect(userId: string): Promise<{ username: string; accountId: string }>
}

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const suite = browserSuite(x, 9000)

// Recipients per platform from this file's own range, taken before awaiting (tests run concurrently).
let igOffset = 6500 + testInt('at-most-once ig people', 1500)
function igPeople(count: number): Promise<SandboxProfile[]> {
  const start = igOffset
  igOffset += count
  return openProfiles(ig, count, start)
}

const PLATFORMS: Platform[] = [
  {
    name: 'X',
    id: 'twitter',
    admin: x,
    dmPages: '/i/chat/',
    deliveredWithoutAnswer: { ack_lost: 'sent', error_after_delivery: 'uncertain' },
    async connect(userId) {
      const sandbox = await newXAccount(x)
      return { username: sandbox.username, accountId: await createXAccount(userId, sandbox) }
    },
  },
  {
    name: 'Instagram',
    id: 'instagram',
    admin: ig,
    dmPages: '/direct/',
    deliveredWithoutAnswer: { ack_lost: 'sent', error_after_delivery: 'sent' },
    async connect(userId) {
      const sandbox = await ig.createAccount<IgSandboxAccount>({ behaviour: { replyShare: 0 } })
      return { username: sandbox.username, accountId: await createInstagramAccount(userId, sandbox) }
    },
  },
]

async function setUp(platform: Platform, leadCount: number) {
  const userId = await createCustomer()
  const { username, accountId } = await platform.connect(userId)
  const leads = platform.name === 'X' ? await suite.people(leadCount) : await igPeople(leadCount)
  const campaignId = await createCampaign(userId, accountId, leads)
  const tick = () => campaignTick(suite.runner.context(), { campaignId, accountId })
  const delivered = () => platform.admin.deliveries(username)
  const fault = (body: Record<string, unknown>) => platform.admin.fault({ account: username, ...body })
  const clearFaults = () => platform.admin.call('DELETE', `/faults?account=${encodeURIComponent(username)}`)
  /** Makes the campaign's waiting leads due now (skips the retry backoff). */
  const dueNow = () =>
    adminDb().query(
      `update public.campaign_leads set next_send_at = now() where campaign_id = $1 and state = 'pending'`,
      [campaignId],
    )
  return {
    platform,
    userId,
    username,
    accountId,
    leads,
    campaignId,
    tick,
    delivered,
    fault,
    clearFaults,
    dueNow,
  }
}

type Setup = Awaited<ReturnType<typeof setUp>>

/** The customer's account with one inbox thread per person, none of whom wrote first. */
async function setUpAnswers(platform: Platform, people: number) {
  const userId = await createCustomer()
  const { username, accountId } = await platform.connect(userId)
  const peers = platform.name === 'X' ? await suite.people(people) : await igPeople(people)
  const threads: string[] = []
  for (const peer of peers) {
    // no platform thread id yet: the answer is addressed to the person and settled via the inbox
    const { rows } = await adminDb().query<{ id: string }>(
      `insert into public.inbox_threads (user_id, account_id, peer_username, peer_platform_id)
       values ($1, $2, $3, $4) returning id`,
      [userId, accountId, peer.username, peer.id],
    )
    threads.push(rows[0]?.id ?? '')
  }
  /** What the Conversations screen queues when the customer presses send. */
  const answer = async (body: string, peer = 0) => {
    await adminDb().query(
      `insert into public.inbox_messages (thread_id, user_id, account_id, direction, body, origin, status, dedupe_key)
       values ($1, $2, $3, 'outgoing', $4, 'reachflow', 'queued', 'reply:' || gen_random_uuid())`,
      [threads[peer], userId, accountId, body],
    )
  }
  const answers = async () =>
    (
      await adminDb().query<{ body: string; status: string; error: string | null }>(
        `select body, status, error from public.inbox_messages
          where account_id = $1 and origin = 'reachflow' order by created_at`,
        [accountId],
      )
    ).rows
  return {
    platform,
    userId,
    username,
    accountId,
    peers,
    answer,
    answers,
    sync: () => inboxSync(suite.runner.context(), { accountId }),
    delivered: () => platform.admin.deliveries(username),
    fault: (body: Record<string, unknown>) => platform.admin.fault({ account: username, ...body }),
    clearFaults: () => platform.admin.call('DELETE', `/faults?account=${encodeURIComponent(username)}`),
    trust: async () => Number((await accountRow(accountId)).trust_score),
  }
}

type AnswerSetup = Awaited<ReturnType<typeof setUpAnswers>>

interface Case {
  name: string
  leads: number
  campaign(t: Setup, expect: import('vitest').ExpectStatic): Promise<void>
  /** The same case for an answer from the inbox; absent where it has no counterpart. */
  answer?(t: AnswerSetup, expect: import('vitest').ExpectStatic): Promise<void>
}

const CASES: Case[] = [
  {
    name: 'a send that succeeds is recorded once, and a later tick sends it no more',
    leads: 1,
    async campaign(t, expect) {
      expect(await t.tick()).toMatchObject({ sent: 1 })
      const delivered = await t.delivered()
      expect(delivered.map((d) => d.recipientUsername)).toEqual(t.leads.map((l) => l.username))
      expect((await logsOf(t.campaignId)).map((l) => [l.status, l.message_sent])).toEqual([
        ['sent', delivered[0]?.text],
      ])
      expect((await leadsOf(t.campaignId))[0]).toMatchObject({ state: 'sent', current_step: 1 })
      await t.dueNow()
      expect((await t.tick()).sent).toBeUndefined()
      expect(await t.delivered()).toHaveLength(1)
    },
    async answer(t, expect) {
      await t.answer('Thanks for writing back!')
      await t.sync()
      expect(await t.answers()).toEqual([{ body: 'Thanks for writing back!', status: 'sent', error: null }])
      expect((await t.delivered()).map((d) => [d.recipientUsername, d.text])).toEqual([
        [t.peers[0]?.username, 'Thanks for writing back!'],
      ])
      await t.sync()
      expect(await t.delivered()).toHaveLength(1)
    },
  },
  {
    name: 'a page that fails before send is pressed: not sent, retried later, delivered once',
    leads: 1,
    async campaign(t, expect) {
      await t.fault({ target: 'page', mode: 'http_500', path: t.platform.dmPages, count: 3 })
      const trust = Number((await accountRow(t.accountId)).trust_score)
      expect(await t.tick()).toMatchObject({ not_sent: 1 })
      expect(await t.delivered()).toEqual([])
      expect(Number((await accountRow(t.accountId)).trust_score)).toBe(trust)
      const [lead] = await leadsOf(t.campaignId)
      expect(lead?.state).toBe('pending')
      expect(lead?.next_send_at?.getTime() ?? 0).toBeGreaterThanOrEqual(Date.now() - 5_000)
      expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['error'])
      await t.clearFaults()
      await t.dueNow()
      expect(await t.tick()).toMatchObject({ sent: 1 })
      expect(await t.delivered()).toHaveLength(1)
      expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['sent'])
    },
    async answer(t, expect) {
      await t.answer('First try.')
      // one failed page: the answer's thread opens once, and the same sync's inbox read comes after
      await t.fault({ target: 'page', mode: 'http_500', path: t.platform.dmPages, count: 1 })
      const trust = await t.trust()
      await t.sync()
      expect(await t.delivered()).toEqual([])
      expect(await t.answers()).toMatchObject([{ status: 'failed', error: expect.any(String) }])
      // the same consequence as a campaign DM's: nothing went out, nothing held against the account
      expect(await t.trust()).toBe(trust)
      await t.clearFaults()
      await t.answer('First try.')
      await t.sync()
      // together, so a failure says what became of each answer and why (stress run, seed 445527616:
      // nothing delivered, the answers' state not shown)
      expect({
        delivered: (await t.delivered()).map((d) => d.text),
        answers: (await t.answers()).map((a) => [a.status, a.error]),
      }).toEqual({
        delivered: ['First try.'],
        answers: [
          ['failed', expect.any(String)],
          ['sent', null],
        ],
      })
    },
  },
  ...(['ack_lost', 'error_after_delivery'] as const).map(
    (mode): Case => ({
      name: `${mode === 'ack_lost' ? 'the answer to send is lost' : 'an error is shown after the DM went out'}: never sent twice, settled as sent from the thread`,
      leads: 1,
      async campaign(t, expect) {
        await t.fault({ target: 'send', mode })
        if (t.platform.deliveredWithoutAnswer[mode] === 'uncertain') {
          expect(await t.tick()).toMatchObject({ uncertain: 1 })
          expect((await leadsOf(t.campaignId))[0]?.state).toBe('uncertain')
          expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['uncertain'])
          expect(await t.tick()).toMatchObject({ settledSent: 1 })
        } else {
          expect(await t.tick()).toMatchObject({ sent: 1 })
        }
        expect((await leadsOf(t.campaignId))[0]).toMatchObject({ state: 'sent', current_step: 1 })
        await t.dueNow()
        expect((await t.tick()).sent).toBeUndefined()
        const delivered = await t.delivered()
        expect(delivered).toHaveLength(1)
        expect((await logsOf(t.campaignId)).map((l) => [l.status, l.message_sent])).toEqual([
          ['sent', delivered[0]?.text],
        ])
      },
      async answer(t, expect) {
        await t.answer('Delivered once.')
        await t.fault({ target: 'send', mode })
        // unconfirmed at first on X; the same sync reads the thread and finds it
        await t.sync()
        expect(await t.answers()).toEqual([{ body: 'Delivered once.', status: 'sent', error: null }])
        await t.sync()
        expect((await t.delivered()).map((d) => d.text)).toEqual(['Delivered once.'])
      },
    }),
  ),
  {
    name: 'a send that never arrived: uncertain, found missing in the thread, sent again once with the same text',
    leads: 1,
    async campaign(t, expect) {
      await t.fault({ target: 'send', mode: 'dropped' })
      expect(await t.tick()).toMatchObject({ uncertain: 1 })
      expect(await t.delivered()).toEqual([])
      // not resent blindly: the next tick reads the thread first, and the step waits out the backoff
      expect(await t.tick()).toMatchObject({ settledNotSent: 1 })
      expect(await t.delivered()).toEqual([])
      const [waiting] = await leadsOf(t.campaignId)
      expect(waiting?.state).toBe('pending')
      expect((waiting?.next_send_at?.getTime() ?? 0) - Date.now()).toBeGreaterThan(4 * 60_000)
      await t.dueNow()
      expect(await t.tick()).toMatchObject({ sent: 1 })
      const delivered = await t.delivered()
      expect(delivered).toHaveLength(1)
      expect((await logsOf(t.campaignId)).map((l) => [l.status, l.message_sent])).toEqual([
        ['sent', delivered[0]?.text],
      ])
    },
    async answer(t, expect) {
      await t.answer('Lost on the way.')
      await t.fault({ target: 'send', mode: 'dropped' })
      // the sync reads the thread after sending: the answer is not there, so it is not sent
      await t.sync()
      expect(await t.answers()).toMatchObject([
        { status: 'failed', error: expect.stringMatching(/^Not delivered/) },
      ])
      expect(await t.delivered()).toEqual([])
      // never retyped by itself: the customer sees it failed and decides
      await t.sync()
      expect(await t.delivered()).toEqual([])
    },
  },
  {
    name: 'a runner that died right after send left the lead `sending`: checked in the thread, no second DM',
    leads: 2,
    async campaign(t, expect) {
      // What a killed runner leaves behind: the intent claimed and the DM delivered, nothing recorded.
      const lead = await nextDueLead(suite.runner.db, t.campaignId)
      if (!lead) throw new Error('no due lead')
      const text = 'Sent just before the crash'
      const claimed = await claimIntent(suite.runner.db, {
        lead,
        accountId: t.accountId,
        userId: t.userId,
        platform: t.platform.id,
        text,
      })
      expect(claimed.status).toBe('claimed')
      expect(await sendOutsideJob(t.accountId, lead.username, text)).toBe('sent')
      expect((await leadsOf(t.campaignId)).find((l) => l.username === lead.username)?.state).toBe('sending')

      expect(await t.tick()).toMatchObject({ settledSent: 1, sent: 1 })
      const delivered = await t.delivered()
      expect(delivered.map((d) => d.recipientUsername).sort()).toEqual(t.leads.map((l) => l.username).sort())
      expect(delivered.filter((d) => d.recipientUsername === lead.username).map((d) => d.text)).toEqual([
        text,
      ])
      expect((await leadsOf(t.campaignId)).map((l) => l.state)).toEqual(['sent', 'sent'])
    },
    async answer(t, expect) {
      // What a killed runner leaves behind: the answer claimed and delivered, nothing recorded.
      await t.answer('Sent just before the crash')
      await t.answer('Queued after it', 1)
      const { rows } = await adminDb().query<{ message_id: string; body: string }>(
        'select message_id, body from internal.claim_inbox_reply($1)',
        [t.accountId],
      )
      expect(rows.map((r) => r.body)).toEqual(['Sent just before the crash'])
      expect(
        await sendOutsideJob(t.accountId, t.peers[0]?.username ?? '', 'Sent just before the crash'),
      ).toBe('sent')
      expect((await t.answers()).map((a) => a.status)).toEqual(['sending', 'queued'])

      await t.sync()
      expect((await t.answers()).map((a) => a.status)).toEqual(['sent', 'sent'])
      const delivered = await t.delivered()
      expect(delivered.map((d) => [d.recipientUsername, d.text])).toEqual([
        [t.peers[0]?.username, 'Sent just before the crash'],
        [t.peers[1]?.username, 'Queued after it'],
      ])
    },
  },
  {
    name: 'two ticks of the same campaign in the same minute send one DM',
    leads: 1,
    async campaign(t, expect) {
      const results = await Promise.all([t.tick(), t.tick()])
      expect(results.map((r) => r.sent ?? 0).reduce((a, b) => a + b, 0)).toBe(1)
      expect(await t.delivered()).toHaveLength(1)
      expect((await logsOf(t.campaignId)).map((l) => l.status)).toEqual(['sent'])
      expect((await leadsOf(t.campaignId))[0]?.state).toBe('sent')
    },
    async answer(t, expect) {
      await t.answer('Two syncs, one answer.')
      // the second either waits for the account and finds nothing queued, or is told to retry later
      await Promise.allSettled([t.sync(), t.sync()])
      expect((await t.delivered()).map((d) => d.text)).toEqual(['Two syncs, one answer.'])
      expect((await t.answers()).map((a) => a.status)).toEqual(['sent'])
    },
  },
]

/** Sends a DM the way a runner that then died would have: through the session, outside any job. */
async function sendOutsideJob(accountId: string, username: string, text: string): Promise<string> {
  const used = await suite.runner.sessions.use(accountId, 10_000, async (handle) => {
    const account = await loadAccount(suite.runner.db, accountId)
    if (!account) throw new Error('no account')
    const opened = await handle.open(account)
    if (opened.status !== 'ok') throw new Error(`no session: ${JSON.stringify(opened)}`)
    return opened.session.sendDm({ username }, text)
  })
  return used.status === 'done' ? used.value.status : used.status
}

for (const platform of PLATFORMS) {
  describe.concurrent(`at most once on ${platform.name}`, BROWSER_SUITE, () => {
    for (const c of CASES) {
      it(`campaign DM: ${c.name}`, async ({ expect }) => {
        await c.campaign(await setUp(platform, c.leads), expect)
      })
      const answer = c.answer
      if (answer)
        it(`inbox answer: ${c.name}`, async ({ expect }) => {
          await answer(await setUpAnswers(platform, c.leads), expect)
        })
    }
  })
}

/** What Instagram's Send API does with one message, and what the engine makes of it. */
interface ApiCase {
  name: string
  /** A fault the Meta sandbox plays on the next message; none sends normally. */
  fault?: { mode: 'http_500' | 'ack_lost' | 'error'; code?: number; subcode?: number }
  /** Sends with a token Instagram does not accept. */
  badToken?: true
  outcome: SendOutcome
  /** The recorder's method the engine called, and the stop signal it carried. */
  recorded: 'sent' | 'uncertain' | 'refused' | 'notSent'
  signal?: StopKind
  /** Whether the caller's word on a refused token was asked (the inbox's answers mark the account for reconnecting). */
  tokenRefused: boolean
  /** Messages the person got, as Instagram has them. */
  delivered: number
}

const API_CASES: ApiCase[] = [
  {
    name: 'an answered send is sent, once',
    outcome: 'sent',
    recorded: 'sent',
    tokenRefused: false,
    delivered: 1,
  },
  {
    name: 'a 500 is uncertain (nothing went out here, but it may have): never sent again',
    fault: { mode: 'http_500' },
    outcome: 'uncertain',
    recorded: 'uncertain',
    tokenRefused: false,
    delivered: 0,
  },
  {
    name: 'a send whose answer was lost is uncertain, and went out once',
    fault: { mode: 'ack_lost' },
    outcome: 'uncertain',
    recorded: 'uncertain',
    tokenRefused: false,
    delivered: 1,
  },
  {
    name: "Instagram's refusal of the person is the person's: skipped with nothing sent",
    fault: { mode: 'error', code: 10, subcode: 2534022 },
    outcome: 'skipped',
    recorded: 'refused',
    signal: 'cannot_message',
    tokenRefused: false,
    delivered: 0,
  },
  {
    name: "a token Instagram does not accept is not sent, and the caller's word on the account is asked",
    badToken: true,
    outcome: 'account_stopped',
    recorded: 'notSent',
    signal: 'unauthenticated',
    tokenRefused: true,
    delivered: 0,
  },
]

/**
 * Failed sends of the account inside the circuit breaker's window, enough to pause a session's
 * account. An official account runs no campaigns, so the DMs' campaign is a browser account's of
 * the same customer (one nothing works: it is in error).
 */
async function failedSendsOf(userId: string, accountId: string, seed: string): Promise<void> {
  const browser = await createInstagramAccount(
    userId,
    { id: '', username: `br_${testInt(seed, 1e9)}`, password: 'pw-123456', totpSecret: null },
    { status: 'error' },
  )
  const campaignId = await createCampaign(userId, browser, [{ id: '1', username: 'lea', name: 'Lea' }], {
    status: 'draft',
  })
  await adminDb().query(
    `insert into public.dm_logs (campaign_id, campaign_lead_id, account_id, user_id, step, message_type, status, target_username)
     select $1, l.id, $2, $3, s, case when s = 0 then 'initial' else 'follow_up' end, 'error', l.username
       from public.campaign_leads l, generate_series(0, $4::int - 1) s
      where l.campaign_id = $1`,
    [campaignId, accountId, userId, BREAKER.threshold],
  )
}

describe('at most once over the Instagram API', () => {
  let meta: MetaSandbox
  const db = createDb(env('RUNNER_DATABASE_URL'), 2)
  beforeAll(async () => {
    meta = await startSandbox()
  })
  afterAll(async () => {
    meta.stop()
    await db.end()
  })

  for (const c of API_CASES)
    it(c.name, async ({ expect }) => {
      const control = controlOf(meta)
      const account = await connectedAccount(meta)
      // a trust a session's account would move either way, and failed sends that would trip its
      // breaker, so that any change shows
      await adminDb().query('update public.social_accounts set trust_score = 0.5 where id = $1', [
        account.accountId,
      ])
      await failedSendsOf(account.userId, account.accountId, `at-most-once api breaker ${c.name}`)
      const before = await accountRow(account.accountId)
      const person = `p_${testInt(`at-most-once api ${c.name}`, 1e9)}`
      // the person wrote first: inside Instagram's 24-hour window a plain message may answer
      const wrote = await control<{ sender_id: string }>('/messages', {
        account: account.username,
        from: person,
        text: 'Hi',
      })
      if (c.fault) await control('/faults', { account: account.username, target: 'messages', ...c.fault })
      const { rows } = await adminDb().query<{ ciphertext: string }>(
        'select ciphertext from public.social_account_credentials where account_id = $1',
        [account.accountId],
      )
      const accessToken = c.badToken
        ? 'not-a-token'
        : officialAccessToken(rows[0]?.ciphertext ?? '', keyringFromEnv())
      const recorded: [string, string?][] = []
      let tokenRefused = false
      const outcome = await sendClaimed(
        officialSending({
          db,
          log: new Logger(db, { test: 'at-most-once api' }, 'info', false),
          api: { graphUrl: meta.base, fetch },
          accessToken,
          account: { id: account.accountId, username: account.username },
          tokenRefused: async () => {
            tokenRefused = true
            return 'error'
          },
        }),
        { to: { id: wrote.sender_id } },
        'Thanks for writing',
        {
          label: 'Answer',
          logContext: {},
          sent: async () => void recorded.push(['sent']),
          uncertain: async () => void recorded.push(['uncertain']),
          notSent: async (_reason, result) => {
            recorded.push(['notSent', result.signal?.kind])
            return 'not sent'
          },
          refused: async (signal) => void recorded.push(['refused', signal.kind]),
          ...NO_PAGE,
        },
      )
      expect(outcome).toBe(c.outcome)
      expect(recorded).toEqual([c.signal ? [c.recorded, c.signal] : [c.recorded]])
      expect(tokenRefused).toBe(c.tokenRefused)
      // no trust, warm-up or breaker: whatever Instagram answered, the account is as it was
      const after = await accountRow(account.accountId)
      expect(after).toMatchObject({
        status: before.status,
        trust_score: before.trust_score,
        paused_until: before.paused_until,
        flag_reason: before.flag_reason,
      })
      const conversation = await control<{ direction: string; text: string }[]>(
        `/conversations?account=${account.username}&peer=${person}`,
      )
      expect(conversation.filter((m) => m.direction === 'out')).toHaveLength(c.delivered)
    })
})
