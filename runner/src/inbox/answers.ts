// The customer's answers from the Conversations inbox, sent as campaign DMs are: at most once
// (claimed as `sending` in a committed transaction before anything is typed), paced (never sooner
// than the campaigns' shortest gap after the account's last DM, within the account's daily cap),
// with the page's confirmation deciding sent / uncertain / failed, and stop signals pausing the
// account. An uncertain answer is checked in the thread later, never typed again. A changed page
// is a site change: an answer stopped before send was pressed goes back to the queue, one stopped
// after is uncertain; neither counts against the account. Nor does a page that ran out of time
// before send was pressed (a slow machine or network): that answer goes back to the queue too.

import { adjustTrust, stopAccount, tripBreakerIfNeeded } from '../accounts/status.ts'
import type { Db } from '../db.ts'
import type { InternalRow } from '../db-rows.ts'
import type { Lease } from '../leases.ts'
import type { Logger } from '../log.ts'
import { serviceOf } from '../log.ts'
import type { DmTarget, PlatformSession, SendResult } from '../platforms/types.ts'
import { MIN_GAP_MS, rateFactor } from '../sending/pacing.ts'
import { stopsAccount } from '../sending/send-lead.ts'
import type { AccountRow } from '../sessions/open.ts'
import { isSiteChange, recordSiteChange } from '../site-change/record.ts'

export interface AnswerDeps {
  db: Db
  log: Logger
  session: PlatformSession
  account: AccountRow
  lease: Lease
  signal: AbortSignal
  pacingFactor: number
  /** Waits ms unless the job is aborted; says whether the whole wait happened. */
  wait: (ms: number) => Promise<boolean>
  /** Answers sent per job at most (the gaps between them must fit the job's time limit). */
  maxAnswers: number
  /** The version of the platform facts the session uses (recorded with a site change). */
  packVersion?: string | null
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
            least(a.daily_message_limit, coalesce(internal.warmup_daily_limit(a.warmup_phase), p.daily_message_ceiling),
                  p.daily_message_ceiling) as cap,
            case when a.sent_today_on = pg_catalog.timezone(a.timezone, internal.now())::date
                 then a.messages_sent_today else 0 end as sent_today
       from public.social_accounts a join public.platforms p on p.id = a.platform_id
      where a.id = $1`,
    [account.id],
  )
  const row = rows[0]
  const gap = (MIN_GAP_MS / rateFactor(account.trust_score)) * pacingFactor
  return {
    waitMs: row?.since_last_ms == null ? 0 : Math.max(0, gap - Number(row.since_last_ms)),
    capReached: row ? row.sent_today >= Math.floor(row.cap * rateFactor(account.trust_score)) : true,
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
  const service = serviceOf(account.platform)
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
    // A send that outlives the job's deadline is abandoned by the platform code before it presses send.
    let result: SendResult
    try {
      result = await session.sendDm(answerTarget(session, answer), answer.body)
    } catch (error) {
      if (!isSiteChange(error)) throw error
      const incident = await recordSiteChange(db, deps.log, error, {
        source: 'job',
        packVersion: deps.packVersion ?? null,
        accountId: account.id,
      })
      await db.query('select internal.requeue_inbox_reply($1, $2)', [
        answer.message_id,
        `Waiting: the page changed before sending ("${error.step}"); it is sent once sending resumes`,
      ])
      await deps.log.info(service, `Answer to @${answer.peer_username} waits: the site changed`, {
        incidentId: incident,
      })
      summary.siteChanged = true
      break
    }
    const log = deps.log.with({ accountId: account.id, inboxMessageId: answer.message_id })
    if (result.status === 'uncertain' && result.siteChange) {
      await recordSiteChange(db, deps.log, result.siteChange, {
        source: 'job',
        packVersion: deps.packVersion ?? null,
        accountId: account.id,
      })
      await finish(db, answer.message_id, 'uncertain', { threadId: result.threadId, error: result.reason })
      summary.uncertain++
      summary.siteChanged = true
      break
    }
    if (result.status === 'failed' && result.outOfTime) {
      // the machine or the network was slow before anything was typed: back to the queue, and
      // nothing held against the account; the next job sends it
      await db.query('select internal.requeue_inbox_reply($1, $2)', [
        answer.message_id,
        `Waiting: the page was slow before anything was typed (${result.reason}); it is sent shortly`,
      ])
      await log.info(service, `Answer to @${answer.peer_username} waits: the page was slow`, {
        reason: result.reason,
      })
      summary.deferred++
      break
    }
    if (result.status === 'sent') {
      await finish(db, answer.message_id, 'sent', {
        platformMessageId: result.messageId,
        threadId: result.threadId,
      })
      await adjustTrust(db, account.id, 0.01)
      await log.info(service, `Answer sent to @${answer.peer_username} from the inbox`)
      summary.sent++
      continue
    }
    if (result.status === 'uncertain') {
      await finish(db, answer.message_id, 'uncertain', { threadId: result.threadId, error: result.reason })
      await log.warn(
        service,
        `Answer to @${answer.peer_username} could not be confirmed; it will be checked in the thread`,
        {
          reason: result.reason,
        },
      )
      summary.uncertain++
    } else {
      await finish(db, answer.message_id, 'failed', {
        threadId: result.threadId,
        error: result.signal ? `${result.reason} (${result.signal.code})` : result.reason,
      })
      await log.warn(service, `Answer to @${answer.peer_username} was not sent`, { reason: result.reason })
      summary.failed++
    }
    await adjustTrust(db, account.id, -0.02)
    if (stopsAccount(result.signal)) {
      await stopAccount(db, account, result.signal)
      await failQueued(db, account.id, `Not sent: @${account.username} was paused (${result.signal.kind}).`)
      summary.accountStopped = true
      break
    }
    if (await tripBreakerIfNeeded(db, account)) {
      summary.accountStopped = true
      break
    }
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
  options: { minAgeMs: number; limit: number },
): Promise<{ sent: number; notSent: number }> {
  const { rows } = await db.query<ClaimedAnswer & { sent_at: Date }>(
    `select m.id as message_id, m.thread_id, m.body, t.peer_username, t.peer_platform_id, t.platform_thread_id, m.sent_at
       from public.inbox_messages m join public.inbox_threads t on t.id = m.thread_id
      where m.account_id = $1 and m.status in ('uncertain', 'sending')
        and m.sent_at <= internal.now() - make_interval(secs => $2::float8 / 1000)
      order by m.sent_at
      limit $3`,
    [accountId, options.minAgeMs, options.limit],
  )
  const summary = { sent: 0, notSent: 0 }
  for (const answer of rows) {
    if (!answer.platform_thread_id) continue
    const found = await session.resolveUncertain({
      threadId: answer.platform_thread_id,
      text: answer.body,
      since: answer.sent_at,
    })
    if (found.status === 'sent') {
      await finish(db, answer.message_id, 'sent', { platformMessageId: found.messageId })
      summary.sent++
    } else {
      await finish(db, answer.message_id, 'failed', {
        error: `Not delivered: the conversation shows no such message (checked ${new Date().toISOString()})`,
      })
      summary.notSent++
    }
  }
  return summary
}
