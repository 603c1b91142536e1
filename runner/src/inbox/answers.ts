// The customer's answers from the Conversations inbox, sent by the same engine as campaign DMs
// (sending/engine.ts): at most once (claimed as `sending` in a committed transaction before
// anything is typed), paced (never sooner than the campaigns' shortest gap after the account's
// last DM, within the account's daily cap), with the same consequences for the account. What is
// the inbox's own is how an answer's outcome is written: a confirmed or unconfirmed answer is
// finished as such, one that did not go out is marked failed with the reason (the customer sees it
// and may send it again), and one stopped before anything was typed (a slow page, a changed site,
// the runner letting go) goes back to the queue.

import type { Db } from '../db.ts'
import type { InternalRow } from '../db-rows.ts'
import type { Lease } from '../leases.ts'
import type { DmTarget, PlatformSession } from '../platforms/types.ts'
import {
  type EngineDeps,
  type SendRecorder,
  sendClaimed,
  sessionSending,
  settleUnconfirmed,
} from '../sending/engine.ts'
import { MIN_GAP_MS, rateFactor } from '../sending/pacing.ts'
import { threadWith } from '../sending/threads.ts'
import type { AccountRow } from '../sessions/open.ts'

/** The engine's parts, plus the answers' own pacing and per-job count. */
export interface AnswerDeps extends EngineDeps {
  pacingFactor: number
  /** Waits ms unless the job is aborted; says whether the whole wait happened. */
  wait: (ms: number) => Promise<boolean>
  /** Answers sent per job at most (the gaps between them must fit the job's time limit). */
  maxAnswers: number
}

export interface AnswersSummary {
  sent: number
  uncertain: number
  failed: number
  accountStopped: boolean
  /** A changed page stopped the answers: sending on the platform is paused. */
  siteChanged: boolean
  /** The page ran out of time before send was pressed: the answer is queued again. */
  deferred: number
}

type ClaimedAnswer = InternalRow<
  'claim_inbox_reply',
  { peer_platform_id: string | null; platform_thread_id: string | null }
>

/** Answers go to the known thread, else the person's X id, else their username. */
export function answerTarget(session: PlatformSession, answer: ClaimedAnswer): DmTarget {
  if (answer.platform_thread_id) return { threadId: answer.platform_thread_id }
  if (session.platform === 'x' && answer.peer_platform_id && /^\d+$/.test(answer.peer_platform_id))
    return { userId: answer.peer_platform_id }
  return { username: answer.peer_username }
}

/** How long until the account may send again, and whether today's cap still allows one. */
async function sendingRoom(db: Db, account: AccountRow, pacingFactor: number) {
  const { rows } = await db.query<{ since_last_ms: number | null; cap: number; sent_today: number }>(
    `select extract(epoch from internal.now() - greatest(
              (select max(d.sent_at) from public.dm_logs d where d.account_id = a.id and d.status in ('sent', 'uncertain')),
              (select max(m.sent_at) from public.inbox_messages m
                where m.account_id = a.id and m.origin = 'reachflow' and m.status in ('sent', 'uncertain')))) * 1000
              as since_last_ms,
            internal.account_daily_cap(a, p) as cap,
            internal.account_sent_today(a, internal.now()) as sent_today
       from public.social_accounts a join public.platforms p on p.id = a.platform_id
      where a.id = $1`,
    [account.id],
  )
  const row = rows[0]
  const gap = (MIN_GAP_MS / rateFactor(account.trust_score)) * pacingFactor
  return {
    waitMs: row?.since_last_ms == null ? 0 : Math.max(0, gap - Number(row.since_last_ms)),
    // the cap already holds a recovering account to its share (internal.account_daily_cap)
    capReached: row ? row.sent_today >= row.cap : true,
    cap: row?.cap ?? 0,
  }
}

async function finish(
  db: Db,
  messageId: string,
  status: 'sent' | 'uncertain' | 'failed',
  detail: { platformMessageId?: string; threadId?: string | null; error?: string } = {},
): Promise<void> {
  await db.query('select internal.finish_inbox_reply($1, $2, $3, $4, $5)', [
    messageId,
    status,
    detail.platformMessageId ?? null,
    detail.threadId ?? null,
    detail.error ?? null,
  ])
}

async function failQueued(db: Db, accountId: string, reason: string): Promise<number> {
  const { rows } = await db.query<{ failed: number }>(
    'select internal.fail_queued_inbox_replies($1, $2) as failed',
    [accountId, reason],
  )
  return rows[0]?.failed ?? 0
}

/** How an answer's outcomes are written, tallied in the job's summary. */
function answerRecorder(db: Db, answer: ClaimedAnswer, summary: AnswersSummary): SendRecorder {
  const requeue = (reason: string) =>
    db.query('select internal.requeue_inbox_reply($1, $2)', [answer.message_id, reason]).then(() => undefined)
  return {
    label: `Answer to @${answer.peer_username}`,
    logContext: { inboxMessageId: answer.message_id },
    async sent(result) {
      await finish(db, answer.message_id, 'sent', {
        platformMessageId: result.messageId,
        threadId: result.threadId,
      })
      summary.sent++
    },
    async uncertain(reason, threadId) {
      await finish(db, answer.message_id, 'uncertain', { threadId, error: reason })
      summary.uncertain++
    },
    async notSent(reason) {
      await finish(db, answer.message_id, 'failed', { error: reason })
      summary.failed++
      return 'marked failed; the customer may send it again'
    },
    async refused(_signal, reason) {
      await finish(db, answer.message_id, 'failed', { error: reason })
      summary.failed++
    },
    async deferred(reason) {
      await requeue(`Waiting: nothing was typed (${reason}); it is sent shortly`)
      summary.deferred++
    },
    async siteChanged(_incident, pressed, step, threadId) {
      summary.siteChanged = true
      if (!pressed)
        return requeue(
          `Waiting: the page changed before sending ("${step}"); it is sent once sending resumes`,
        )
      await finish(db, answer.message_id, 'uncertain', {
        threadId,
        error: `The page changed after send was pressed ("${step}"); the conversation is checked once sending resumes`,
      })
      summary.uncertain++
    },
  }
}

/** Sends the account's queued answers one by one; stops at a stop signal or when the lease is lost. */
export async function sendQueuedAnswers(deps: AnswerDeps): Promise<AnswersSummary> {
  const { db, session, account } = deps
  const summary: AnswersSummary = {
    sent: 0,
    uncertain: 0,
    failed: 0,
    accountStopped: false,
    siteChanged: false,
    deferred: 0,
  }
  for (let tried = 0; tried < deps.maxAnswers; tried++) {
    if (deps.signal.aborted || !deps.lease.valid) break
    const queued = await db.query(
      `select 1 from public.inbox_messages where account_id = $1 and status = 'queued' limit 1`,
      [account.id],
    )
    if (!queued.rowCount) break
    const room = await sendingRoom(db, account, deps.pacingFactor)
    if (room.capReached) {
      summary.failed += await failQueued(
        db,
        account.id,
        `@${account.username} has reached today's limit of ${room.cap} messages. Nothing was sent; send it again tomorrow.`,
      )
      break
    }
    // paced like campaign DMs; the wait happens before the claim, so an interrupted wait sends nothing
    if (room.waitMs > 0 && !(await deps.wait(room.waitMs))) break
    if (deps.signal.aborted || !deps.lease.valid) break
    const answer = (
      await db.query<ClaimedAnswer>('select * from internal.claim_inbox_reply($1)', [account.id])
    ).rows[0]
    if (!answer) break
    const outcome = await sendClaimed(
      sessionSending(deps),
      answerTarget(session, answer),
      answer.body,
      answerRecorder(db, answer, summary),
    )
    if (outcome === 'sent') continue
    if (outcome === 'account_stopped') {
      await failQueued(db, account.id, `Not sent: @${account.username} was paused.`)
      summary.accountStopped = true
    }
    if (outcome !== 'uncertain' && outcome !== 'not_sent' && outcome !== 'skipped') break
  }
  return summary
}

/**
 * Answers nobody could confirm, old enough for a late delivery to show: the thread decides. A
 * `sending` answer was left by a runner that died mid-send and is just as uncertain.
 */
export async function settleUncertainAnswers(
  db: Db,
  session: PlatformSession,
  accountId: string,
  lease: Lease,
  options: { minAgeMs: number; limit: number },
): Promise<{ sent: number; notSent: number; unreadable: number }> {
  const { rows } = await db.query<ClaimedAnswer & { sent_at: Date; last_message_id: string | null }>(
    `select m.id as message_id, m.thread_id, m.body, t.peer_username, t.peer_platform_id, t.platform_thread_id, m.sent_at,
            (select o.platform_message_id from public.inbox_messages o
              where o.thread_id = m.thread_id and o.platform_message_id is not null and o.created_at < m.created_at
              order by o.created_at desc limit 1) as last_message_id
       from public.inbox_messages m join public.inbox_threads t on t.id = m.thread_id
      where m.account_id = $1 and m.status in ('uncertain', 'sending')
        and m.sent_at <= internal.now() - make_interval(secs => $2::float8 / 1000)
      order by m.sent_at
      limit $3`,
    [accountId, options.minAgeMs, options.limit],
  )
  return settleUnconfirmed(session, lease, rows, {
    thread: (answer) =>
      answer.platform_thread_id
        ? Promise.resolve(answer.platform_thread_id)
        : threadWith(session, {
            username: answer.peer_username,
            profile_data: answer.peer_platform_id ? { platform_id: answer.peer_platform_id } : {},
          }),
    text: (answer) => answer.body,
    since: (answer) => answer.sent_at,
    after: (answer) => answer.last_message_id,
    sent: (answer, messageId) => finish(db, answer.message_id, 'sent', { platformMessageId: messageId }),
    notSent: (answer, reason) => finish(db, answer.message_id, 'failed', { error: reason }),
  })
}
