// instagram.event against the real database (as the runner's role) and an in-process Meta sandbox:
// a keyword comment on the watched post gets one private reply and the public reply however often
// its event is worked; other words, other posts and old comments get none; a DM keyword is
// answered inside the 24-hour window and refused with Instagram's reason outside it; a story
// mention is answered; a browser inbox read of the account ends at once. Events enter as the
// webhook stores them (record_instagram_webhook_events).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyringFromEnv } from '../src/crypto.ts'
import { createDb, type Db } from '../src/db.ts'
import { inboxSync, OFFICIAL_INSTAGRAM_NOTE } from '../src/jobs/inbox-sync.ts'
import { instagramEvent, REFUSALS } from '../src/jobs/instagram-event.ts'
import { Logger } from '../src/log.ts'
import { testRunner } from './helpers/context.ts'
import { adminDb, closeAdminDb, env } from './helpers/fixtures.ts'
import {
  createAutomation as automation,
  type Connected,
  connectedAccount,
  controlOf,
  deliver,
  HOUR,
  type MetaSandbox,
  startSandbox,
} from './helpers/meta-official.ts'

let sandbox: MetaSandbox
let db: Db
const keyring = keyringFromEnv()

beforeAll(async () => {
  sandbox = await startSandbox()
  db = createDb(env('RUNNER_DATABASE_URL'), 2)
})

afterAll(async () => {
  sandbox.stop()
  await db.end()
  await closeAdminDb()
})

const control = <T = Record<string, unknown>>(path: string, body?: unknown) =>
  controlOf(sandbox)<T>(path, body)
const connected = () => connectedAccount(sandbox)

async function comment(a: Connected, from: string, text: string, mediaId = a.post, occurredAt?: Date) {
  const made = await control<{ comment_id: string; from_id: string }>('/comments', {
    account: a.username,
    from,
    text,
    media_id: mediaId,
  })
  const eventId = await deliver(a.igId, {
    key: `comment:${made.comment_id}`,
    field: 'comments',
    kind: 'comment',
    occurredAt,
    payload: {
      from: { id: made.from_id, username: from },
      media: { id: mediaId },
      id: made.comment_id,
      text,
    },
  })
  return { ...made, eventId }
}

async function dm(a: Connected, from: string, text: string) {
  const made = await control<{ mid: string; sender_id: string }>('/messages', {
    account: a.username,
    from,
    text,
  })
  const eventId = await deliver(a.igId, {
    key: `message:${made.mid}`,
    field: 'messages',
    kind: 'message',
    payload: {
      sender: { id: made.sender_id },
      recipient: { id: a.igId },
      timestamp: Date.now(),
      message: { mid: made.mid, text },
    },
  })
  return { ...made, eventId }
}

const runsOf = async (automationId: string) =>
  (
    await adminDb().query<{
      status: string
      reason: string | null
      message_id: string | null
      public_reply_id: string | null
    }>(
      'select status, reason, message_id, public_reply_id from public.instagram_automation_runs where automation_id = $1 order by created_at',
      [automationId],
    )
  ).rows

const ctx = () => ({
  db,
  log: new Logger(db, { test: 'instagram-event' }, 'info', false),
  config: { keyring, instagramGraphUrl: sandbox.base },
})

const accountState = async (accountId: string) =>
  (
    await adminDb().query<{ status: string; trust_score: string; flag_reason: string | null }>(
      'select status, trust_score, flag_reason from public.social_accounts where id = $1',
      [accountId],
    )
  ).rows[0]

describe('instagram.event', () => {
  it('a keyword comment on the watched post gets one private reply and the public reply, however often it is worked', async () => {
    const a = await connected()
    const id = await automation(a.userId, a.accountId, {
      trigger: 'comment_keyword',
      media_id: a.post,
      keywords: ['guide'],
      public_reply_text: 'Sent you a DM!',
    })
    const hit = await comment(a, 'ana', 'GUIDE please!')
    expect(await instagramEvent(ctx(), { eventId: hit.eventId })).toBe('sent')
    expect(await instagramEvent(ctx(), { eventId: hit.eventId })).toBe('already_answered')
    const comments = await control<
      { id: string; privateReplyMid: string | null; replies: { text: string }[] }[]
    >(`/comments?account=${a.username}`)
    const answered = comments.find((c) => c.id === hit.comment_id)
    expect(answered?.privateReplyMid).toBeTruthy()
    expect(answered?.replies.map((r) => r.text)).toEqual(['Sent you a DM!'])
    const sent = (
      await control<{ direction: string; kind: string }[]>(`/conversations?account=${a.username}&peer=ana`)
    ).filter((m) => m.direction === 'out')
    expect(sent).toEqual([expect.objectContaining({ kind: 'private_reply' })])
    expect(await runsOf(id)).toEqual([
      {
        status: 'sent',
        reason: null,
        message_id: answered?.privateReplyMid,
        public_reply_id: expect.any(String),
      },
    ])

    // not the keyword as a word, another post, a comment older than 7 days: no reply sent
    expect(await instagramEvent(ctx(), { eventId: (await comment(a, 'ben', 'my guidebook')).eventId })).toBe(
      'no_automation',
    )
    expect(
      await instagramEvent(ctx(), { eventId: (await comment(a, 'cleo', 'guide', a.other)).eventId }),
    ).toBe('no_automation')
    const old = await comment(a, 'dan', 'guide?', a.post, new Date(Date.now() - 8 * 24 * HOUR))
    expect(await instagramEvent(ctx(), { eventId: old.eventId })).toBe('refused')
    expect((await runsOf(id)).at(-1)).toMatchObject({ status: 'refused', reason: REFUSALS.tooOld })
    expect((await control<unknown[]>(`/conversations?account=${a.username}&peer=dan`)).length).toBe(0)
  })

  it("a DM keyword is answered inside the 24-hour window and refused with Instagram's reason outside it", async () => {
    const a = await connected()
    const id = await automation(a.userId, a.accountId, {
      trigger: 'dm_keyword',
      keywords: ['price'],
      reply_text: 'Prices: https://example.com/p',
    })
    const inside = await dm(a, 'eve', 'What is the PRICE?')
    expect(await instagramEvent(ctx(), { eventId: inside.eventId })).toBe('sent')
    const late = await dm(a, 'fay', 'price list please')
    await control('/clock', { advance_ms: 25 * HOUR })
    try {
      expect(await instagramEvent(ctx(), { eventId: late.eventId })).toBe('refused')
    } finally {
      await control('/clock', { advance_ms: -25 * HOUR })
    }
    const runs = await runsOf(id)
    expect(runs[0]).toMatchObject({ status: 'sent' })
    expect(runs[1]).toMatchObject({ status: 'refused' })
    expect(runs[1]?.reason).toBe(
      'Instagram refused the reply: (#10) This message is sent outside of allowed window. (code 10/2534022)',
    )
    expect(
      (await control<{ direction: string }[]>(`/conversations?account=${a.username}&peer=fay`)).filter(
        (m) => m.direction === 'out',
      ),
    ).toEqual([])
  })

  it("a token Instagram no longer accepts refuses the reply in Instagram's words and leaves the account as it was", async () => {
    const a = await connected()
    const id = await automation(a.userId, a.accountId, {
      trigger: 'dm_keyword',
      keywords: ['price'],
      reply_text: 'Prices: https://example.com/p',
    })
    const asked = await dm(a, 'gil', 'price?')
    const before = await accountState(a.accountId)
    await control('/tokens/revoke', { account: a.username })
    expect(await instagramEvent(ctx(), { eventId: asked.eventId })).toBe('refused')
    expect((await runsOf(id)).at(-1)).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/^Instagram refused the reply: .+ \(code 190\)$/),
    })
    // an official account has no trust or breaker, and the automation DM never marked it for reconnecting
    expect(await accountState(a.accountId)).toEqual(before)
  })

  it('a story mention is answered, and an account that is not active answers nothing', async () => {
    const a = await connected()
    await automation(a.userId, a.accountId, {
      trigger: 'story_mention',
      reply_text: 'Thanks for the mention!',
    })
    const made = await control<{ mid: string; sender_id: string }>('/story-mentions', {
      account: a.username,
      from: 'gus',
    })
    const eventId = await deliver(a.igId, {
      key: `message:${made.mid}`,
      field: 'messages',
      kind: 'story_mention',
      payload: {
        sender: { id: made.sender_id },
        recipient: { id: a.igId },
        message: { mid: made.mid, attachments: [{ type: 'story_mention' }] },
      },
    })
    await adminDb().query("update public.social_accounts set status = 'error' where id = $1", [a.accountId])
    expect(await instagramEvent(ctx(), { eventId })).toBe('no_account')
    await adminDb().query("update public.social_accounts set status = 'active' where id = $1", [a.accountId])
    expect(await instagramEvent(ctx(), { eventId })).toBe('sent')
    const out = (
      await control<{ direction: string; text: string }[]>(`/conversations?account=${a.username}&peer=gus`)
    ).filter((m) => m.direction === 'out')
    expect(out.map((m) => m.text)).toEqual(['Thanks for the mention!'])
  })
})

describe('an official Instagram account and the browser inbox', () => {
  it('is never read through a browser: a queued inbox.sync ends at once and leaves the account active', async () => {
    const { accountId } = await connected()
    const runner = await testRunner()
    try {
      const result = await inboxSync(runner.context(), { accountId })
      expect(result.note).toBe(OFFICIAL_INSTAGRAM_NOTE)
      const { rows } = await adminDb().query<{ status: string }>(
        'select status from public.social_accounts where id = $1',
        [accountId],
      )
      expect(rows[0]?.status).toBe('active')
      expect((await runner.pool.stats()).browsers).toBe(0)
    } finally {
      await runner.close()
    }
  })
})
