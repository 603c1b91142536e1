// The one send path for everything the runner sends: campaign DMs, the inbox's answers, and an
// official Instagram account's automation DMs, follow-ups and answers. The caller has claimed its
// row (committed before anything is sent, so a crash leaves it `sending`, never resent blindly);
// from there this sends through the caller's channel (a browser page, the X API, Instagram's Send
// API), records what the channel confirmed through the caller's recorder, and applies what the
// outcome means for the account that sent. What differs between callers (which row was claimed,
// how each outcome is written, where an unconfirmed one is looked for) is the recorder and the
// settle strategy they pass; what an outcome does to the account is a property of the kind of
// account (AccountConsequences). A session's account (docs/decisions.md): confirmed raises trust;
// pressed but unconfirmed lowers it; nothing left the account (page trouble, a person who cannot
// be messaged, a slow page, a changed site) costs no trust, page trouble counts toward the circuit
// breaker, and a stop signal stops the account.
import { adjustTrust, stopAccount, tripBreakerIfNeeded } from '../accounts/status.ts'
import type { Db } from '../db.ts'
import type { Lease } from '../leases.ts'
import type { Logger } from '../log.ts'
import { serviceOf } from '../log.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import type { DmTarget, PlatformSession, SendResult, StopSignal } from '../platforms/types.ts'
import type { AccountRow } from '../sessions/open.ts'
import { isSiteChange, recordSiteChange } from '../site-change/record.ts'

export type SendOutcome =
  | 'sent'
  | 'uncertain'
  | 'not_sent'
  /** The platform refused this person (DMs closed, verified only, gone). */
  | 'skipped'
  | 'account_stopped'
  /** The page was not what the adapter expects: sending on the platform is paused fleet-wide. */
  | 'site_changed'
  /** The DM page ran out of time before send was pressed: nothing attempted, it goes again. */
  | 'deferred'

/** A signed-in session's parts for a send: the account the runner leased, driven by its session. */
export interface EngineDeps {
  db: Db
  log: Logger
  session: PlatformSession
  account: AccountRow
  lease: Lease
  signal: AbortSignal
  /** The version of the platform facts the session uses (recorded with a site change). */
  packVersion?: string | null
}

/** One answer of a channel, by its status. */
export type Answered<R extends SendResult, S extends SendResult['status']> = Extract<R, { status: S }>

/** What sends: a browser page or the X API (a PlatformSession), or Instagram's Send API. */
export interface SendChannel<T, R extends SendResult> {
  sendDm(target: T, text: string): Promise<R>
}

/**
 * What a send's outcome does to the account that sent it, by the kind of account: a session's
 * account gains and loses trust, has a circuit breaker and stops at a stop signal; an official
 * Instagram account has none of these.
 */
export interface AccountConsequences<R extends SendResult = SendResult> {
  delivered(): Promise<void>
  /** Send was pressed, delivery not confirmed. */
  unconfirmed(): Promise<void>
  /** A stop signal about the account; answers the account's status now, for the log. */
  stop(signal: StopSignal, result: Answered<R, 'uncertain'> | Answered<R, 'failed'>): Promise<string>
  /** After a send that failed or went unconfirmed: whether the account's circuit breaker paused it. */
  breakerTripped(): Promise<boolean>
}

/** Everything one send needs: who sends, through what, and what the outcome does to them. */
export interface Sending<T = DmTarget, R extends SendResult = SendResult> {
  db: Db
  log: Logger
  account: { id: string; username: string; platform: AccountPlatform }
  channel: SendChannel<T, R>
  consequences: AccountConsequences<R>
  /** False once the runner let go of the account (its lease lost, the job aborted): nothing is sent. */
  mayStillSend(): boolean
  /** The version of the platform facts the channel uses (recorded with a site change). */
  packVersion?: string | null
}

/** A session's account: trust, the circuit breaker, and a stop at a stop signal. */
export function sessionAccount(db: Db, account: AccountRow): AccountConsequences {
  return {
    delivered: () => adjustTrust(db, account.id, 0.01),
    unconfirmed: () => adjustTrust(db, account.id, -0.02),
    stop: (signal) => stopAccount(db, account, signal),
    breakerTripped: () => tripBreakerIfNeeded(db, account),
  }
}

/** A send by a leased account through its signed-in session. */
export function sessionSending(deps: EngineDeps): Sending {
  return {
    db: deps.db,
    log: deps.log,
    account: deps.account,
    channel: deps.session,
    consequences: sessionAccount(deps.db, deps.account),
    mayStillSend: () => deps.lease.valid && !deps.signal.aborted,
    packVersion: deps.packVersion ?? null,
  }
}

/** How one caller writes each outcome of its claimed row; `result` is the channel's answer. */
export interface SendRecorder<R extends SendResult = SendResult> {
  /** What the log lines call the message, e.g. "DM to @ana", "Answer to @ana". */
  label: string
  /** Ids the log lines carry. */
  logContext: Record<string, unknown>
  sent(result: Answered<R, 'sent'>): Promise<void>
  /** Send was pressed, delivery not confirmed: the thread decides later. */
  /** `seenBefore`: the thread's rows the send saw before typing, kept for the later check. */
  uncertain(
    reason: string,
    threadId: string | null,
    seenBefore: string[] | undefined,
    result: Answered<R, 'uncertain'>,
  ): Promise<void>
  /** Nothing went out (page trouble or a stop signal); returns what happens next, for the log. */
  notSent(reason: string, result: Answered<R, 'failed'>): Promise<string>
  /** The platform refused this person. */
  refused(signal: StopSignal, reason: string, result: Answered<R, 'failed'>): Promise<void>
  /** Nothing was attempted (a slow page, the runner let go of the account): it goes again. */
  deferred(reason: string): Promise<void>
  /** The page changed; pressed says whether send had been pressed. */
  siteChanged(incidentId: string, pressed: boolean, step: string, threadId: string | null): Promise<void>
}

/** Whether a signal means the account must stop (page trouble is only retried later). */
export function stopsAccount(signal: StopSignal | undefined): signal is StopSignal {
  return signal !== undefined && signal.scope === 'account' && signal.kind !== 'page_error'
}

/** Sends a claimed message, records the channel's answer, and settles the account's side. */
export async function sendClaimed<T, R extends SendResult>(
  sending: Sending<T, R>,
  target: T,
  text: string,
  record: SendRecorder<R>,
): Promise<SendOutcome> {
  const { db, account, consequences } = sending
  const service = serviceOf(account.platform)
  const log = sending.log.with({ accountId: account.id, ...record.logContext })
  if (!sending.mayStillSend()) {
    await record.deferred('the runner let go of the account before sending')
    return 'deferred'
  }

  let result: R
  try {
    result = await sending.channel.sendDm(target, text)
  } catch (error) {
    if (!isSiteChange(error)) throw error
    const incident = await recordSiteChange(db, sending.log, error, {
      source: 'job',
      packVersion: sending.packVersion ?? null,
      accountId: account.id,
    })
    await record.siteChanged(incident, false, error.step, null)
    await log.info(service, `${record.label} was not sent: the site changed`, { incidentId: incident })
    return 'site_changed'
  }

  if (isAnswer(result, 'sent')) {
    await record.sent(result)
    await consequences.delivered()
    await log.info(service, `${record.label} sent`)
    return 'sent'
  }
  if (isAnswer(result, 'uncertain')) {
    if (result.siteChange) {
      const incident = await recordSiteChange(db, sending.log, result.siteChange, {
        source: 'job',
        packVersion: sending.packVersion ?? null,
        accountId: account.id,
      })
      await record.siteChanged(incident, true, result.siteChange.step, result.threadId)
      await log.info(service, `${record.label} is uncertain: the site changed`, { incidentId: incident })
      return 'site_changed'
    }
    await record.uncertain(result.reason, result.threadId, result.seenBefore, result)
    await log.warn(service, `${record.label} could not be confirmed; it will be checked in the thread`, {
      reason: result.reason,
    })
    await consequences.unconfirmed()
    if (stopsAccount(result.signal)) {
      await consequences.stop(result.signal, result)
      return 'account_stopped'
    }
    return (await consequences.breakerTripped()) ? 'account_stopped' : 'uncertain'
  }
  // the one status left (a guard narrows no generic parameter in its false branch)
  const failed = result as Answered<R, 'failed'>
  if (failed.outOfTime || failed.retryAt) {
    // the machine or the network was slow, or the platform asked to wait (an API rate limit): not
    // the account's fault, no trust change, nothing for the breaker; the lead stays due
    await record.deferred(failed.reason)
    await log.info(service, `${record.label} waits: the page was slow before anything was typed`, {
      reason: failed.reason,
    })
    return 'deferred'
  }
  const signal = failed.signal
  if (signal?.scope === 'lead') {
    await record.refused(signal, `${failed.reason} (${signal.code})`, failed)
    await log.info(service, `${record.label} refused: ${signal.kind} (${signal.code})`)
    return 'skipped'
  }
  if (stopsAccount(signal)) {
    await record.notSent(`${failed.reason} (${signal.code})`, failed)
    const status = await consequences.stop(signal, failed)
    await log.warn(service, `@${account.username} ${status} after ${signal.kind} (${signal.code})`, {
      code: signal.code,
      kind: signal.kind,
    })
    return 'account_stopped'
  }
  const next = await record.notSent(failed.reason, failed)
  await log.warn(service, `${record.label} failed before it was sent (${next})`, { reason: failed.reason })
  return (await consequences.breakerTripped()) ? 'account_stopped' : 'not_sent'
}

/** Narrows a channel's answer by its status (a union narrows no generic parameter by itself). */
function isAnswer<R extends SendResult, S extends SendResult['status']>(
  result: R,
  status: S,
): result is Answered<R, S> {
  return result.status === status
}

/** Where to look for one unconfirmed send, and how to record what the thread shows. */
export interface SettleStrategy<T> {
  /** The conversation to read, or null when there is none (then it was not delivered). */
  thread(item: T): Promise<string | null>
  text(item: T): string
  /** When the send was claimed: a delivery before that is an older message with the same text. */
  since(item: T): Date
  /** The platform id of the thread's last message stored before the send, if any. */
  after?(item: T): string | null
  /** The platform ids of the thread's rows the send saw before typing, if recorded. */
  seenBefore?(item: T): string[] | null
  sent(item: T, messageId: string): Promise<void>
  notSent(item: T, reason: string): Promise<void>
}

/**
 * Reads the thread of each unconfirmed send (old enough for a late delivery to show) and records
 * what it shows: found → sent; missing → not sent; a thread that cannot tell leaves it uncertain
 * (never sent again on a guess). Stops when the lease is lost.
 */
export async function settleUnconfirmed<T>(
  session: PlatformSession,
  lease: Lease,
  items: T[],
  strategy: SettleStrategy<T>,
): Promise<{ sent: number; notSent: number; unreadable: number }> {
  const summary = { sent: 0, notSent: 0, unreadable: 0 }
  for (const item of items) {
    if (!lease.valid) break
    const threadId = await strategy.thread(item)
    const found = threadId
      ? await session.resolveUncertain({
          threadId,
          text: strategy.text(item),
          since: strategy.since(item),
          after: strategy.after?.(item) ?? null,
          seenBefore: strategy.seenBefore?.(item) ?? null,
        })
      : ({ status: 'not_sent' } as const)
    if (found.status === 'unreadable') {
      summary.unreadable++
      continue
    }
    if (found.status === 'sent') {
      await strategy.sent(item, found.messageId)
      summary.sent++
    } else {
      await strategy.notSent(
        item,
        `Not delivered: the conversation shows no such message (checked ${new Date().toISOString()})`,
      )
      summary.notSent++
    }
  }
  return summary
}
