// inbox.sync {accountId}: first sends the customer's queued answers from the Conversations inbox,
// then reads the account's inbox (read-replies.ts: the whole conversation of everyone who replied,
// replies recorded, requests counted), and settles unconfirmed sends and answers. The scheduler
// queues it every few minutes for an account in use and hourly for an idle one. A sync that finds
// the account read since it was queued by other work (a campaign tick that held the session), with
// nothing else to do, ends without taking the session. After a site change, answers wait while
// sending on the platform is paused and reading waits while its inbox reading is. An official
// Instagram account only sends its answers, through Instagram's API (official/instagram-answers.ts):
// its messages come by webhook.
import { signIn, stopOnSignal } from '../accounts/sign-in.ts'
import { sendQueuedAnswers, settleUncertainAnswers } from '../inbox/answers.ts'
import { READ_REPLIES_AFTER_MS, readNewReplies } from '../inbox/read-replies.ts'
import { serviceOf } from '../log.ts'
import { sendInstagramAnswers, settleStaleAnswers } from '../official/instagram-answers.ts'
import { settleUncertainSends } from '../sending/uncertain.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import { type AccountRow, loadAccount } from '../sessions/open.ts'
import { actionState, stateNote } from '../site-change/record.ts'
import { DeferredForLoadError, type JobContext, pause, RetryLaterError } from './context.ts'
import type { JobData } from './queues.ts'

/** Answers sent per sync at most: with the gaps between them they must fit the job's time limit. */
const MAX_ANSWERS_PER_SYNC = 4

export interface InboxSyncResult {
  conversations?: number
  /** Null when the read left the requests page for a later one. */
  requests?: number | null
  /** Threads opened by the read. */
  opened?: number
  replies?: number
  optOuts?: number
  settledSent?: number
  settledNotSent?: number
  answersSent?: number
  answersUncertain?: number
  answersFailed?: number
  /** Answers queued again because their page ran out of time before anything was typed. */
  answersDeferred?: number
  siteChanged?: boolean
  /** Read by other work since this sync was queued, no answer waiting, no "Check now" since: nothing to do. */
  readRecently?: boolean
  note?: string
}

/** How long past its last read an account's read stops waiting for the sends (sends first). */
export const COLD_READ_WAITS_AT_MOST_MS = 30 * 60_000

interface ReadState {
  /** A read began after this sync was queued and less than READ_REPLIES_AFTER_MS ago (a campaign tick's). */
  readRecently: boolean
  /** A queued or unconfirmed answer, or "Check now" pressed after the last read. */
  customerWaits: boolean
  /** Never read, or not for COLD_READ_WAITS_AT_MOST_MS. */
  longUnread: boolean
}

/**
 * The account's reads and what waits on one. The queue time is database time; read times are the
 * scheduler's clock (internal.now(), shifted in tests).
 */
async function readState(ctx: JobContext, accountId: string, queuedAt: Date | undefined): Promise<ReadState> {
  const { rows } = await ctx.db.query<ReadState>(
    `select coalesce(a.last_synced_at > internal.now() - make_interval(secs => $2::float8 / 1000)
                     and a.last_synced_at >= $3::timestamptz + (internal.now() - now()), false) as "readRecently",
            exists (select 1 from public.inbox_messages m
                     where m.account_id = a.id and m.status in ('queued', 'sending', 'uncertain'))
            or exists (select 1 from public.inbox_check_requests r
                        where r.account_id = a.id
                          and r.requested_at >= coalesce(a.last_synced_at, '-infinity')) as "customerWaits",
            coalesce(a.last_synced_at < internal.now() - make_interval(secs => $4::float8 / 1000), true)
              as "longUnread"
       from public.social_accounts a where a.id = $1`,
    [accountId, READ_REPLIES_AFTER_MS, queuedAt ?? null, COLD_READ_WAITS_AT_MOST_MS],
  )
  return rows[0] ?? { readRecently: false, customerWaits: false, longUnread: true }
}

export const OFFICIAL_INSTAGRAM_NOTE =
  "Instagram's webhooks bring this official account's messages: no browser read; answers go through Instagram's API."

/** Answers sent through Instagram's API per job (no typing, no pacing gaps: many fit). */
const MAX_API_ANSWERS_PER_SYNC = 20

/** An official Instagram account: its queued answers go through the Send API; nothing is read. */
async function officialInstagramSync(ctx: JobContext, account: AccountRow): Promise<InboxSyncResult> {
  const { rows } = await ctx.db.query<{ ciphertext: string }>(
    'select ciphertext from public.social_account_credentials where account_id = $1',
    [account.id],
  )
  const ciphertext = rows[0]?.ciphertext
  if (!ciphertext) return { note: 'The account has no Instagram token: connect it again.' }
  await settleStaleAnswers(ctx.db, account.id)
  const answers = await sendInstagramAnswers(
    { db: ctx.db, log: ctx.log, keyring: ctx.config.keyring, graphUrl: ctx.config.instagramGraphUrl, fetch },
    { id: account.id, username: account.username, ciphertext },
    MAX_API_ANSWERS_PER_SYNC,
  )
  const waiting = await ctx.db.query(
    `select 1 from public.inbox_messages where account_id = $1 and status = 'queued' limit 1`,
    [account.id],
  )
  if (waiting.rowCount) await ctx.db.query('select internal.request_inbox_sync($1)', [account.id])
  return {
    answersSent: answers.sent,
    answersUncertain: answers.uncertain,
    answersFailed: answers.failed,
    note: OFFICIAL_INSTAGRAM_NOTE,
  }
}

export async function inboxSync(ctx: JobContext, data: JobData['inbox.sync']): Promise<InboxSyncResult> {
  const account = await loadAccount(ctx.db, data.accountId)
  if (account?.status !== 'active') return { note: 'The account is not active.' }
  // Instagram's webhooks bring an official account's messages; it has no browser inbox to read
  if (account.connection === 'official' && account.platform === 'instagram')
    return officialInstagramSync(ctx, account)
  // paused fleet-wide, or held for this account after it met a page nobody has confirmed yet
  const states = {
    send: await actionState(ctx.db, account.platform, 'send', account.id),
    inbox: await actionState(ctx.db, account.platform, 'inbox', account.id),
  }
  const waits: Waits = {
    send: states.send !== 'running',
    inboxNote: stateNote(states.inbox, account.platform, 'inbox'),
  }
  if (waits.send && waits.inboxNote) return { note: waits.inboxNote }
  const state = await readState(ctx, account.id, ctx.queuedAt)
  if (state.readRecently && !state.customerWaits)
    return { readRecently: true, note: 'Read by other work since this sync was queued; nothing else waits.' }
  // sends first: a read that needs a sign-in waits while sends wait or the machine is short of CPU
  // (a campaign tick reads the inbox itself once it holds the session; the scheduler queues this
  // again), unless a person waits on it or the account has gone unread too long; a session that
  // is warm, or restored from its sealed save, needs no sign-in
  if (
    !state.customerWaits &&
    !state.longUnread &&
    ctx.admission?.coldReadsWait() &&
    (await ctx.sessions.needsSignIn(account.id))
  )
    throw new DeferredForLoadError('Sends come first: a read that needs a sign-in waits for the next round.')
  const used = await ctx.sessions.use(account.id, ctx.config.accountWaitMs, (handle) =>
    sync(ctx, handle, account, waits),
  )
  // another job has the account: try again later rather than skip a sync
  if (used.status === 'busy') throw new RetryLaterError(`The account is busy (${used.where}).`)
  return used.value
}

/** What this account may not do now: send answers, read the inbox (the note says why). */
interface Waits {
  send: boolean
  inboxNote: string | null
}

async function sync(
  ctx: JobContext,
  handle: AccountHandle,
  account: AccountRow,
  waits: Waits,
): Promise<InboxSyncResult> {
  const signedIn = await signIn(ctx.db, handle, account)
  if ('note' in signedIn) return { note: signedIn.note }
  const session = signedIn.session
  const result: InboxSyncResult = { replies: 0, optOuts: 0 }
  try {
    const answers = waits.send
      ? { sent: 0, uncertain: 0, failed: 0, accountStopped: false, siteChanged: false, deferred: 0 }
      : await sendQueuedAnswers({
          db: ctx.db,
          log: ctx.log,
          session,
          account,
          lease: handle.lease,
          signal: ctx.signal,
          pacingFactor: ctx.config.pacingFactor,
          wait: (ms) => pause(ms, ctx.signal),
          maxAnswers: MAX_ANSWERS_PER_SYNC,
          packVersion: ctx.packs.current(account.platform).version,
        })
    result.answersSent = answers.sent
    result.answersUncertain = answers.uncertain
    result.answersFailed = answers.failed
    if (answers.siteChanged) result.siteChanged = true
    // the pages are too slow now: reading the inbox would only run out of time as well
    if (answers.deferred > 0)
      return { ...result, answersDeferred: answers.deferred, note: 'The pages were slow; the answer waits.' }
    if (answers.accountStopped) {
      await handle.discard()
      return { ...result, note: 'The account was stopped while sending answers.' }
    }
    if (waits.inboxNote) return { ...result, note: waits.inboxNote }
    Object.assign(result, await readNewReplies(ctx.db, session, account, ctx.signal))
    const settledAnswers = await settleUncertainAnswers(ctx.db, session, account.id, handle.lease, {
      minAgeMs: ctx.config.uncertainCheckAfterMs,
      limit: 5,
    })
    result.answersSent = answers.sent + settledAnswers.sent
    result.answersFailed = answers.failed + settledAnswers.notSent
    const settled = await settleUncertainSends(ctx.db, session, account.id, handle.lease, {
      minAgeMs: ctx.config.uncertainCheckAfterMs,
      limit: 10,
    })
    result.settledSent = settled.sent
    result.settledNotSent = settled.notSent
  } catch (error) {
    const status = await stopOnSignal(ctx.db, handle, account, error)
    return { ...result, note: `The account was ${status}.` }
  }
  // answers left for the next sync (at most MAX_ANSWERS_PER_SYNC go per job)
  const waiting = await ctx.db.query(
    `select 1 from public.inbox_messages where account_id = $1 and status = 'queued' limit 1`,
    [account.id],
  )
  // (not after a site change: the next sync comes on its usual schedule, not at once)
  if (waiting.rowCount && !result.siteChanged)
    await ctx.db.query('select internal.request_inbox_sync($1)', [account.id])
  if (result.replies || result.optOuts)
    await ctx.log.info(serviceOf(account.platform), `@${account.username}: ${result.replies} new replies`, {
      accountId: account.id,
      optOuts: result.optOuts,
    })
  return result
}
