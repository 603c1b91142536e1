// inbox.sync {accountId}: first sends the customer's queued answers from the Conversations inbox,
// then reads the account's inbox and message requests, stores the whole conversation of everyone
// who replied (for the inbox), records replies that came in since the last sync (lead replied,
// follow-ups stopped, response counted, customer told, opt-outs to do-not-contact), counts waiting
// requests, and settles unconfirmed sends and answers.
import { signIn, stopOnSignal } from '../accounts/sign-in.ts'
import { sendQueuedAnswers, settleUncertainAnswers } from '../inbox/answers.ts'
import { recordReply } from '../inbox/replies.ts'
import { applyPlatformReadMarkers, readingMarksRead, storeThread } from '../inbox/threads.ts'
import { serviceOf } from '../log.ts'
import { settleUncertainSends } from '../sending/uncertain.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import { type AccountRow, loadAccount } from '../sessions/open.ts'
import { type JobContext, pause, RetryLaterError } from './context.ts'
import type { JobData } from './queues.ts'

/** Looks back this far before the last sync, so a reply that arrived during it is not missed. */
const OVERLAP_MS = 10 * 60_000
/** How far back the first sync of an account looks. */
const FIRST_SYNC_MS = 7 * 24 * 3_600_000
/** Answers sent per sync at most: with the gaps between them they must fit the job's time limit. */
const MAX_ANSWERS_PER_SYNC = 4

export interface InboxSyncResult {
  conversations?: number
  requests?: number
  replies?: number
  optOuts?: number
  settledSent?: number
  settledNotSent?: number
  answersSent?: number
  answersUncertain?: number
  answersFailed?: number
  siteChanged?: boolean
  note?: string
}

export async function inboxSync(ctx: JobContext, data: JobData['inbox.sync']): Promise<InboxSyncResult> {
  const account = await loadAccount(ctx.db, data.accountId)
  if (account?.status !== 'active') return { note: 'The account is not active.' }
  const used = await ctx.sessions.use(account.id, ctx.config.accountWaitMs, (handle) =>
    sync(ctx, handle, account),
  )
  // another job has the account: try again later rather than skip a sync
  if (used.status === 'busy') throw new RetryLaterError(`The account is busy (${used.where}).`)
  return used.value
}

async function sync(ctx: JobContext, handle: AccountHandle, account: AccountRow): Promise<InboxSyncResult> {
  const signedIn = await signIn(ctx.db, handle, account)
  if ('note' in signedIn) return { note: signedIn.note }
  const session = signedIn.session
  const { rows } = await ctx.db.query<{ now: Date; since: Date }>(
    `select internal.now() as now,
            coalesce(last_synced_at, internal.now() - make_interval(secs => $2::float8 / 1000))
              - make_interval(secs => $3::float8 / 1000) as since
       from public.social_accounts where id = $1`,
    [account.id, FIRST_SYNC_MS, OVERLAP_MS],
  )
  const since = rows[0]?.since ?? new Date(Date.now() - FIRST_SYNC_MS)
  const result: InboxSyncResult = { replies: 0, optOuts: 0 }
  try {
    const answers = await sendQueuedAnswers({
      db: ctx.db,
      log: ctx.log,
      session,
      account,
      lease: handle.lease,
      signal: ctx.signal,
      pacingFactor: ctx.config.pacingFactor,
      wait: (ms) => pause(ms, ctx.signal),
      maxAnswers: MAX_ANSWERS_PER_SYNC,
    })
    result.answersSent = answers.sent
    result.answersUncertain = answers.uncertain
    result.answersFailed = answers.failed
    if (answers.siteChanged) result.siteChanged = true
    if (answers.accountStopped) {
      await handle.discard()
      return { ...result, note: 'The account was stopped while sending answers.' }
    }
    const conversations = await session.readInbox({ includeRequests: true })
    result.conversations = conversations.length
    result.requests = conversations.filter((c) => c.request).length
    const recent = conversations.filter(
      (c) => c.unread || (c.lastMessage.at !== null && Date.parse(c.lastMessage.at) > since.getTime()),
    )
    for (const conversation of recent) {
      if (ctx.signal.aborted) break
      const thread = await session.readThread(conversation.threadId)
      const stored = await storeThread(ctx.db, {
        accountId: account.id,
        peerUsername: conversation.peer.username,
        peerId: conversation.peer.id,
        threadId: conversation.threadId,
        platformUnread: conversation.unread,
        opened: readingMarksRead(session.platform),
        messages: thread,
      })
      const incoming = thread.filter(
        (m) => m.direction === 'incoming' && (m.at === null || Date.parse(m.at) > since.getTime()),
      )
      if (incoming.length === 0) continue
      const outcome = await recordReply(ctx.db, {
        accountId: account.id,
        userId: account.user_id,
        platform: account.platform,
        peerUsername: conversation.peer.username,
        messages: incoming,
        ...(stored ? { inboxThreadId: stored.threadId } : {}),
      })
      result.replies = (result.replies ?? 0) + outcome.leadsReplied
      if (outcome.optedOut) result.optOuts = (result.optOuts ?? 0) + 1
    }
    // read on the platform itself since: not unread in Reachflow too
    await applyPlatformReadMarkers(
      ctx.db,
      account.id,
      conversations.filter((c) => !c.unread).map((c) => c.threadId),
    )
    const settledAnswers = await settleUncertainAnswers(ctx.db, session, account.id, {
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
  await ctx.db.query(
    'update public.social_accounts set last_synced_at = $2, requests_pending = $3 where id = $1',
    [account.id, rows[0]?.now ?? new Date(), result.requests ?? 0],
  )
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
