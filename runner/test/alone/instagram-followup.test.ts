// An Instagram automation's follow-up against the real database (as the runner's role) and an
// in-process Meta sandbox, on the test clock (internal.clock and the sandbox's clock moved together,
// never real waiting): sent inside the 24-hour window once its delay has passed; skipped after the
// person answered; refused in words past 24 hours with nothing sent; a duplicated job sends once; a
// paused or deleted automation sends nothing; Instagram's refusal is kept with its reason; a 5xx
// is failed and not sent again. Alone: it moves the clock every other suite reads.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { keyringFromEnv } from '../../src/crypto.ts'
import { createDb, type Db } from '../../src/db.ts'
import { instagramEvent } from '../../src/jobs/instagram-event.ts'
import { instagramFollowup } from '../../src/jobs/instagram-followup.ts'
import { Logger } from '../../src/log.ts'
import { adminDb, closeAdminDb, env } from '../helpers/fixtures.ts'
import {
  connectedAccount,
  controlOf,
  createAutomation,
  deliver,
  HOUR,
  type MetaSandbox,
  startSandbox,
} from '../helpers/meta-official.ts'

const MINUTE = 60_000
let sandbox: MetaSandbox
let db: Db
const keyring = keyringFromEnv()
let offsetMs = 0

beforeAll(async () => {
  sandbox = await startSandbox()
  db = createDb(env('RUNNER_DATABASE_URL'), 2)
})

beforeEach(() => setClocks(0))

afterAll(async () => {
  await setClocks(0)
  sandbox.stop()
  await db.end()
  await closeAdminDb()
})

const control = <T = Record<string, unknown>>(path: string, body?: unknown) =>
  controlOf(sandbox)<T>(path, body)

/** The database's and the sandbox's clocks, the same time ahead of real time. */
async function setClocks(ms: number) {
  offsetMs = ms
  await adminDb().query(`update internal.clock set "offset" = make_interval(secs => $1::float8 / 1000)`, [ms])
  await control('/clock', { offset_ms: ms })
}

/** A sandbox business account connected as a new customer's official account, with one DM automation. */
async function automated(followup: { text: string; minutes: number } | null) {
  const { username, igId, userId, accountId } = await connectedAccount(sandbox)
  const automationId = await createAutomation(userId, accountId, {
    name: 'Price',
    trigger: 'dm_keyword',
    keywords: ['price'],
    reply_text: 'Prices: https://example.com/p',
    followup_text: followup?.text ?? null,
    followup_delay_minutes: followup?.minutes ?? null,
  })
  return { username, igId, accountId, automationId }
}

type Automated = Awaited<ReturnType<typeof automated>>

/** The person DMs the account; the event is stored as the webhook stores it. Answers its id and the person's. */
async function dm(a: Automated, from: string, text: string): Promise<{ eventId: string; personId: string }> {
  const made = await control<{ mid: string; sender_id: string }>('/messages', {
    account: a.username,
    from,
    text,
  })
  const eventId = await deliver(a.igId, {
    key: `message:${made.mid}`,
    field: 'messages',
    kind: 'message',
    occurredAt: new Date(Date.now() + offsetMs),
    payload: {
      sender: { id: made.sender_id },
      recipient: { id: a.igId },
      message: { mid: made.mid, text },
    },
  })
  return { eventId, personId: made.sender_id }
}

const ctx = () => ({
  db,
  log: new Logger(db, { test: 'instagram-followup' }, 'info', false),
  config: { keyring, instagramGraphUrl: sandbox.base },
})

/** The person DMs the keyword and the automation answers; answers the follow-up it scheduled. */
async function answered(a: Automated, from: string): Promise<string> {
  const { eventId, personId } = await dm(a, from, 'price?')
  expect(await instagramEvent(ctx(), { eventId })).toBe('sent')
  const { rows } = await adminDb().query<{ id: string }>(
    'select id from public.instagram_automation_followups where automation_id = $1 and person_id = $2',
    [a.automationId, personId],
  )
  return rows[0]?.id ?? ''
}

const sentTo = async (a: Automated, from: string) =>
  (await control<{ direction: string; text: string }[]>(`/conversations?account=${a.username}&peer=${from}`))
    .filter((m) => m.direction === 'out')
    .map((m) => m.text)

const followup = async (id: string) =>
  (
    await adminDb().query<{ status: string; reason: string | null; message_id: string | null }>(
      'select status, reason, message_id from public.instagram_automation_followups where id = $1',
      [id],
    )
  ).rows[0]

describe('instagram.followup', () => {
  it('is sent inside the 24-hour window once its delay has passed, and a duplicated job sends it once', async () => {
    const a = await automated({ text: 'Still thinking about it?', minutes: 90 })
    const id = await answered(a, 'ana')
    expect(id).not.toBe('')
    // its job starts after the delay: not before
    await setClocks(89 * MINUTE)
    expect(await instagramFollowup(ctx(), { followupId: id })).toBe('early')
    expect(await sentTo(a, 'ana')).toEqual(['Prices: https://example.com/p'])

    await setClocks(91 * MINUTE)
    const [first, second] = await Promise.all([
      instagramFollowup(ctx(), { followupId: id }),
      instagramFollowup(ctx(), { followupId: id }),
    ])
    expect([first, second].sort()).toEqual(['done', 'sent'])
    expect(await instagramFollowup(ctx(), { followupId: id })).toBe('done')
    expect(await sentTo(a, 'ana')).toEqual(['Prices: https://example.com/p', 'Still thinking about it?'])
    expect(await followup(id)).toEqual({
      status: 'sent',
      reason: null,
      message_id: expect.stringMatching(/.+/),
    })
  })

  it('is skipped when the person answered first', async () => {
    const a = await automated({ text: 'Still thinking about it?', minutes: 60 })
    const id = await answered(a, 'ben')
    await setClocks(10 * MINUTE)
    await dm(a, 'ben', 'thanks, ordering now')
    await setClocks(61 * MINUTE)
    expect(await instagramFollowup(ctx(), { followupId: id })).toBe('skipped')
    expect(await sentTo(a, 'ben')).toEqual(['Prices: https://example.com/p'])
    expect(await followup(id)).toMatchObject({
      status: 'skipped',
      reason: 'They answered before the follow-up was due.',
    })
  })

  it('is refused in words, with nothing sent, when their last message is more than 24 hours old', async () => {
    const a = await automated({ text: 'Still thinking about it?', minutes: 23 * 60 + 59 })
    const id = await answered(a, 'cleo')
    // the runner was down: the job runs a day late
    await setClocks(24 * HOUR + 5 * MINUTE)
    expect(await instagramFollowup(ctx(), { followupId: id })).toBe('refused')
    expect(await sentTo(a, 'cleo')).toEqual(['Prices: https://example.com/p'])
    expect(await followup(id)).toMatchObject({
      status: 'refused',
      reason:
        'Their last message is more than 24 hours old: Instagram allows a message only within 24 hours of it, so the follow-up was not sent.',
    })
  })

  it('sends nothing when the automation was paused, and nothing again after a 5xx', async () => {
    const a = await automated({ text: 'Still thinking about it?', minutes: 30 })
    const paused = await answered(a, 'dan')
    const failing = await answered(a, 'eve')
    await adminDb().query('update public.instagram_automations set enabled = false where id = $1', [
      a.automationId,
    ])
    await setClocks(31 * MINUTE)
    expect(await instagramFollowup(ctx(), { followupId: paused })).toBe('cancelled')
    expect(await sentTo(a, 'dan')).toEqual(['Prices: https://example.com/p'])

    await adminDb().query('update public.instagram_automations set enabled = true where id = $1', [
      a.automationId,
    ])
    await control('/faults', { account: a.username, target: 'messages', mode: 'http_500' })
    expect(await instagramFollowup(ctx(), { followupId: failing })).toBe('failed')
    expect(await instagramFollowup(ctx(), { followupId: failing })).toBe('done')
    expect(await followup(failing)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^Instagram/),
    })
  })

  it('sends nothing when the automation was deleted meanwhile', async () => {
    const a = await automated({ text: 'Still thinking about it?', minutes: 30 })
    const id = await answered(a, 'hal')
    await adminDb().query('delete from public.instagram_automations where id = $1', [a.automationId])
    await setClocks(31 * MINUTE)
    expect(await instagramFollowup(ctx(), { followupId: id })).toBe('done')
    expect(await sentTo(a, 'hal')).toEqual(['Prices: https://example.com/p'])
  })

  it("records Instagram's refusal with its reason", async () => {
    const a = await automated({ text: 'Still thinking about it?', minutes: 30 })
    const id = await answered(a, 'fay')
    await control('/people/available', { username: 'fay', available: false })
    await setClocks(31 * MINUTE)
    expect(await instagramFollowup(ctx(), { followupId: id })).toBe('refused')
    expect(await followup(id)).toMatchObject({
      status: 'refused',
      reason:
        "Instagram refused the follow-up: (#551) This person isn't available right now. (code 551/1545041)",
    })
    expect(await sentTo(a, 'fay')).toEqual(['Prices: https://example.com/p'])
  })

  it('records a token Instagram no longer accepts as its refusal, and leaves the account as it was', async () => {
    const a = await automated({ text: 'Still thinking about it?', minutes: 30 })
    const id = await answered(a, 'ida')
    const state = () =>
      adminDb()
        .query('select status, trust_score, flag_reason from public.social_accounts where id = $1', [
          a.accountId,
        ])
        .then((r) => r.rows[0])
    const before = await state()
    await control('/tokens/revoke', { account: a.username })
    await setClocks(31 * MINUTE)
    expect(await instagramFollowup(ctx(), { followupId: id })).toBe('refused')
    expect(await followup(id)).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/^Instagram refused the follow-up: .+ \(code 190\)$/),
    })
    // an official account has no trust or breaker, and the follow-up never marked it for reconnecting
    expect(await state()).toEqual(before)
    expect(await sentTo(a, 'ida')).toEqual(['Prices: https://example.com/p'])
  })

  it('is not scheduled for an automation without one', async () => {
    const a = await automated(null)
    expect(await instagramEvent(ctx(), { eventId: (await dm(a, 'gus', 'price')).eventId })).toBe('sent')
    const { rows } = await adminDb().query(
      'select 1 from public.instagram_automation_followups where automation_id = $1',
      [a.automationId],
    )
    expect(rows).toEqual([])
  })
})
