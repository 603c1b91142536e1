// An official Instagram account's conversations in the inbox, against the real database (as the
// runner's role) and an in-process Meta sandbox: a DM lands in the person's thread with the
// username from the User Profile API, once however often it is worked; a story mention says so;
// an automation's DM and its echo are one message; answers from the inbox go through the Send API
// (inside 24 hours plain, inside 7 days with the HUMAN_AGENT tag, after that refused with the
// reason and nothing sent); Instagram's refusal fails the answer; no answer from Instagram leaves it
// uncertain and never sends it twice, until its echo confirms it; a token Instagram no longer
// accepts fails the answers and turns the account error; an answer a stopped runner left sending
// is settled uncertain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyringFromEnv } from '../src/crypto.ts'
import { createDb, type Db } from '../src/db.ts'
import { inboxSync } from '../src/jobs/inbox-sync.ts'
import { instagramEvent } from '../src/jobs/instagram-event.ts'
import { Logger } from '../src/log.ts'
import { RUNNER_STOPPED } from '../src/official/instagram-answers.ts'
import { STORY_MENTION_BODY } from '../src/official/instagram-inbox.ts'
import { type TestRunner, testRunner } from './helpers/context.ts'
import { adminDb, closeAdminDb, env } from './helpers/fixtures.ts'
import {
  type Connected,
  connectedAccount,
  controlOf,
  createAutomation,
  DAY,
  deliver,
  HOUR,
  type MetaSandbox,
  startSandbox,
} from './helpers/meta-official.ts'

let sandbox: MetaSandbox
let db: Db
let runner: TestRunner

beforeAll(async () => {
  sandbox = await startSandbox()
  db = createDb(env('RUNNER_DATABASE_URL'), 2)
  runner = await testRunner({ instagramGraphUrl: sandbox.base })
})

afterAll(async () => {
  sandbox.stop()
  await runner.close()
  await db.end()
  await closeAdminDb()
})

const control = <T = Record<string, unknown>>(path: string, body?: unknown) =>
  controlOf(sandbox)<T>(path, body)
const connected = () => connectedAccount(sandbox)
const ctx = () => ({
  db,
  log: new Logger(db, { test: 'instagram-inbox' }, 'info', false),
  config: { keyring: keyringFromEnv(), instagramGraphUrl: sandbox.base },
})

/** The person writes a DM in the sandbox; its webhook event is stored as delivered `ageMs` ago. */
async function dm(a: Connected, from: string, text: string, ageMs = 0) {
  const made = await control<{ mid: string; sender_id: string }>('/messages', {
    account: a.username,
    from,
    text,
  })
  const eventId = await deliver(a.igId, {
    key: `message:${made.mid}`,
    field: 'messages',
    kind: 'message',
    occurredAt: new Date(Date.now() - ageMs),
    payload: {
      sender: { id: made.sender_id },
      recipient: { id: a.igId },
      timestamp: Date.now() - ageMs,
      message: { mid: made.mid, text },
    },
  })
  return { ...made, eventId }
}

/** The echo Meta sends for a message the account sent. */
const echo = (a: Connected, to: string, mid: string, text: string) =>
  deliver(a.igId, {
    key: `message:${mid}`,
    field: 'messages',
    kind: 'echo',
    payload: { sender: { id: a.igId }, recipient: { id: to }, message: { mid, text, is_echo: true } },
  })

const threadOf = async (accountId: string, personId: string) =>
  (
    await adminDb().query<{
      id: string
      peer_username: string
      status: string
      unread_count: number
      last_message_preview: string
    }>(
      'select id, peer_username, status, unread_count, last_message_preview from public.inbox_threads where account_id = $1 and peer_platform_id = $2',
      [accountId, personId],
    )
  ).rows[0]

const messagesOf = async (threadId: string) =>
  (
    await adminDb().query<{
      direction: string
      body: string
      status: string
      error: string | null
      origin: string
    }>(
      'select direction, body, status, error, origin from public.inbox_messages where thread_id = $1 order by created_at',
      [threadId],
    )
  ).rows

/** The customer's answer from the thread view (public.queue_inbox_reply, as PostgREST calls it). */
async function answer(userId: string, threadId: string, body: string): Promise<string> {
  const client = await adminDb().connect()
  try {
    await client.query('begin')
    await client.query(
      `select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`,
      [JSON.stringify({ sub: userId, role: 'authenticated' })],
    )
    const { rows } = await client.query<{ id: string }>('select public.queue_inbox_reply($1, $2) as id', [
      threadId,
      body,
    ])
    await client.query('commit')
    return rows[0]?.id ?? ''
  } catch (error) {
    await client.query('rollback')
    throw error
  } finally {
    client.release()
  }
}

/** What the account sent the person, as Instagram has it. */
const sentTo = async (a: Connected, peer: string) =>
  (
    await control<{ mid: string; direction: string; text: string; tag: string | null; kind: string }[]>(
      `/conversations?account=${a.username}&peer=${peer}`,
    )
  ).filter((m) => m.direction === 'out')

const sync = (accountId: string) => inboxSync(runner.context(), { accountId })

describe('official Instagram messages in the inbox', () => {
  it("a DM lands in the person's thread with their username, once however often it is worked", async () => {
    const a = await connected()
    const first = await dm(a, 'ana_reads', 'Do you ship to Spain?')
    expect(await instagramEvent(ctx(), { eventId: first.eventId })).toBe('no_automation')
    expect(await instagramEvent(ctx(), { eventId: first.eventId })).toBe('no_automation')
    const thread = await threadOf(a.accountId, first.sender_id)
    expect(thread).toMatchObject({ peer_username: 'ana_reads', status: 'open', unread_count: 1 })
    expect(await messagesOf(thread?.id ?? '')).toEqual([
      {
        direction: 'incoming',
        body: 'Do you ship to Spain?',
        status: 'received',
        error: null,
        origin: 'platform',
      },
    ])
    await adminDb().query("update public.inbox_threads set status = 'handled' where id = $1", [thread?.id])
    const mention = await control<{ mid: string; sender_id: string }>('/story-mentions', {
      account: a.username,
      from: 'ana_reads',
    })
    const eventId = await deliver(a.igId, {
      key: `message:${mention.mid}`,
      field: 'messages',
      kind: 'story_mention',
      payload: {
        sender: { id: mention.sender_id },
        recipient: { id: a.igId },
        message: {
          mid: mention.mid,
          attachments: [{ type: 'story_mention', payload: { url: 'https://x' } }],
        },
      },
    })
    await instagramEvent(ctx(), { eventId })
    expect(await threadOf(a.accountId, first.sender_id)).toMatchObject({
      status: 'open',
      unread_count: 2,
      last_message_preview: STORY_MENTION_BODY,
    })
  })

  it("an automation's private reply starts a handled thread, and its echo is the same message", async () => {
    const a = await connected()
    await createAutomation(a.userId, a.accountId, { trigger: 'comment_keyword', keywords: ['guide'] })
    const made = await control<{ comment_id: string; from_id: string }>('/comments', {
      account: a.username,
      from: 'ben_b',
      text: 'guide please',
      media_id: a.post,
    })
    const eventId = await deliver(a.igId, {
      key: `comment:${made.comment_id}`,
      field: 'comments',
      kind: 'comment',
      payload: {
        from: { id: made.from_id, username: 'ben_b' },
        media: { id: a.post },
        id: made.comment_id,
        text: 'guide please',
      },
    })
    expect(await instagramEvent(ctx(), { eventId })).toBe('sent')
    const [sent] = await control<{ mid: string; direction: string }[]>(
      `/conversations?account=${a.username}&peer=ben_b`,
    )
    await instagramEvent(ctx(), { eventId: await echo(a, made.from_id, sent?.mid ?? '', 'x') })
    const thread = await threadOf(a.accountId, made.from_id)
    expect(thread).toMatchObject({ peer_username: 'ben_b', status: 'handled', unread_count: 0 })
    expect(await messagesOf(thread?.id ?? '')).toEqual([
      {
        direction: 'outgoing',
        body: 'Here is the guide: https://example.com/g',
        status: 'sent',
        error: null,
        origin: 'platform',
      },
    ])
    // never wrote: the inbox refuses an answer at once
    await expect(answer(a.userId, thread?.id ?? '', 'Hi!')).rejects.toThrow(
      `@ben_b has not written to @${a.username} yet: Instagram lets a business answer only people who wrote to it. Nothing was sent.`,
    )
  })
})

describe('answers from the inbox through the Send API', () => {
  it('inside 24 hours a normal message, inside 7 days with the HUMAN_AGENT tag, after that refused', async () => {
    const a = await connected()
    const fresh = await dm(a, 'cleo_c', 'Hi!')
    await instagramEvent(ctx(), { eventId: fresh.eventId })
    const freshThread = await threadOf(a.accountId, fresh.sender_id)
    await answer(a.userId, freshThread?.id ?? '', 'Hello Cleo')
    expect(await sync(a.accountId)).toMatchObject({ answersSent: 1, answersFailed: 0 })
    expect(await sync(a.accountId)).toMatchObject({ answersSent: 0 })
    expect(await sentTo(a, 'cleo_c')).toEqual([expect.objectContaining({ text: 'Hello Cleo', tag: null })])
    expect(await messagesOf(freshThread?.id ?? '')).toContainEqual(
      expect.objectContaining({ body: 'Hello Cleo', status: 'sent', origin: 'reachflow' }),
    )
    // its echo, delivered later, is the same message
    const [out] = await sentTo(a, 'cleo_c')
    await instagramEvent(ctx(), { eventId: await echo(a, fresh.sender_id, out?.mid ?? '', 'Hello Cleo') })
    expect((await messagesOf(freshThread?.id ?? '')).length).toBe(2)

    // 30 hours ago on both clocks: the human-agent tag
    const older = await dm(a, 'dora_d', 'Any news?', 30 * HOUR)
    await control('/clock', { advance_ms: 30 * HOUR })
    try {
      await instagramEvent(ctx(), { eventId: older.eventId })
      const olderThread = await threadOf(a.accountId, older.sender_id)
      await answer(a.userId, olderThread?.id ?? '', 'Sorry for the wait')
      expect(await sync(a.accountId)).toMatchObject({ answersSent: 1 })
      expect(await sentTo(a, 'dora_d')).toEqual([
        expect.objectContaining({ text: 'Sorry for the wait', tag: 'HUMAN_AGENT' }),
      ])
    } finally {
      await control('/clock', { advance_ms: -30 * HOUR })
    }

    // 8 days ago: refused when queued
    const old = await dm(a, 'eli_e', 'Hello?', 8 * DAY)
    await instagramEvent(ctx(), { eventId: old.eventId })
    const oldThread = await threadOf(a.accountId, old.sender_id)
    await expect(answer(a.userId, oldThread?.id ?? '', 'Late')).rejects.toThrow(
      /^@eli_e last wrote on .+, more than 7 days ago: Instagram allows an answer only within 7 days of the person's last message\. Nothing was sent\.$/,
    )
    // queued inside the window, but the window closed before the runner took it: nothing sent
    const edge = await dm(a, 'fio_f', 'Hey')
    await instagramEvent(ctx(), { eventId: edge.eventId })
    const edgeThread = await threadOf(a.accountId, edge.sender_id)
    await answer(a.userId, edgeThread?.id ?? '', 'Too late now')
    await adminDb().query(
      "update public.inbox_messages set sent_at = now() - interval '8 days' where thread_id = $1 and direction = 'incoming'",
      [edgeThread?.id],
    )
    await adminDb().query('select internal.refresh_inbox_thread($1)', [edgeThread?.id])
    expect(await sync(a.accountId)).toMatchObject({ answersSent: 0, answersFailed: 1 })
    expect((await messagesOf(edgeThread?.id ?? '')).at(-1)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^@fio_f last wrote on .+, more than 7 days ago/),
    })
    expect(await sentTo(a, 'fio_f')).toEqual([])
  })

  it("Instagram's refusal fails the answer with the reason; no answer leaves it uncertain, sent once, until its echo confirms it", async () => {
    const a = await connected()
    const first = await dm(a, 'gus_g', 'Hi')
    await instagramEvent(ctx(), { eventId: first.eventId })
    const thread = await threadOf(a.accountId, first.sender_id)
    const threadId = thread?.id ?? ''

    // Instagram's clock is past the window while ours is not: its refusal is the reason
    await answer(a.userId, threadId, 'Refused one')
    await control('/clock', { advance_ms: 8 * DAY })
    try {
      expect(await sync(a.accountId)).toMatchObject({ answersFailed: 1 })
    } finally {
      await control('/clock', { advance_ms: -8 * DAY })
    }
    expect((await messagesOf(threadId)).at(-1)).toMatchObject({
      status: 'failed',
      error:
        "Instagram refused the answer: it is outside the window Instagram allows after the person's last message (code 10/2534022). Nothing was sent.",
    })

    // a 500: uncertain, and not sent again by the next sync
    await control('/faults', { account: a.username, target: 'messages', mode: 'http_500' })
    await answer(a.userId, threadId, 'Server error one')
    expect(await sync(a.accountId)).toMatchObject({ answersUncertain: 1 })
    expect(await sync(a.accountId)).toMatchObject({ answersSent: 0, answersUncertain: 0 })
    expect((await messagesOf(threadId)).at(-1)).toMatchObject({
      status: 'uncertain',
      error: expect.stringContaining('it may have gone out, so it is not sent again'),
    })

    // sent, but the answer was lost: uncertain until the echo arrives and confirms it
    await control('/faults', { account: a.username, target: 'messages', mode: 'ack_lost' })
    await answer(a.userId, threadId, 'Lost answer')
    expect(await sync(a.accountId)).toMatchObject({ answersUncertain: 1 })
    const lost = (await sentTo(a, 'gus_g')).find((m) => m.text === 'Lost answer')
    await instagramEvent(ctx(), { eventId: await echo(a, first.sender_id, lost?.mid ?? '', 'Lost answer') })
    const after = await messagesOf(threadId)
    expect(after.filter((m) => m.body === 'Lost answer')).toEqual([
      expect.objectContaining({ status: 'sent', error: null, origin: 'reachflow' }),
    ])
    expect((await sentTo(a, 'gus_g')).map((m) => m.text)).toEqual(['Lost answer'])
  })

  it('a token Instagram no longer accepts fails the answers and turns the account error', async () => {
    const a = await connected()
    const first = await dm(a, 'hal_h', 'Hi')
    await instagramEvent(ctx(), { eventId: first.eventId })
    const threadId = (await threadOf(a.accountId, first.sender_id))?.id ?? ''
    await answer(a.userId, threadId, 'One')
    await answer(a.userId, threadId, 'Two')
    await control('/tokens/revoke', { account: a.username })
    expect(await sync(a.accountId)).toMatchObject({ answersSent: 0, answersFailed: 2 })
    const failed = (await messagesOf(threadId)).filter((m) => m.origin === 'reachflow')
    expect(failed.map((m) => [m.body, m.status])).toEqual([
      ['One', 'failed'],
      ['Two', 'failed'],
    ])
    expect(failed[0]?.error).toMatch(/^Instagram refused the answer: .+ \(code 190\)\. Nothing was sent\.$/)
    expect(failed[1]?.error).toBe(`Not sent: @${a.username} must be connected to Instagram again.`)
    const { rows } = await adminDb().query<{ status: string }>(
      'select status from public.social_accounts where id = $1',
      [a.accountId],
    )
    expect(rows[0]?.status).toBe('error')
  })

  it('an answer a stopped runner left sending is settled uncertain, never sent again', async () => {
    const a = await connected()
    const first = await dm(a, 'ivy_i', 'Hi')
    await instagramEvent(ctx(), { eventId: first.eventId })
    const threadId = (await threadOf(a.accountId, first.sender_id))?.id ?? ''
    const id = await answer(a.userId, threadId, 'Left behind')
    await adminDb().query('select * from internal.claim_inbox_reply($1)', [a.accountId])
    await sync(a.accountId)
    expect((await messagesOf(threadId)).at(-1)).toMatchObject({ status: 'sending' })
    await adminDb().query(
      "update public.inbox_messages set sent_at = now() - interval '10 minutes' where id = $1",
      [id],
    )
    await sync(a.accountId)
    expect((await messagesOf(threadId)).at(-1)).toMatchObject({ status: 'uncertain', error: RUNNER_STOPPED })
    expect(await sentTo(a, 'ivy_i')).toEqual([])
  })
})
