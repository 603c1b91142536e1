// The one send path for everything the runner types into a DM box: campaign DMs and the inbox's
// answers. The caller has claimed its row (committed before anything is typed, so a crash leaves
// it `sending`, never resent blindly); from there this presses send, records what the page
// confirmed through the caller's recorder, and applies the same consequences to the account
// whoever asked for the send. What differs between callers (which row was claimed, how each
// outcome is written, where an unconfirmed one is looked for) is the recorder and the settle
// strategy they pass. Consequences (docs/decisions.md): confirmed raises trust; pressed but
// unconfirmed lowers it; nothing left the account (page trouble, a person who cannot be messaged,
// a slow page, a changed site) costs no trust, page trouble counts toward the circuit breaker, and
// a stop signal stops the account.
import { adjustTrust, stopAccount, tripBreakerIfNeeded } from '../accounts/status.ts'
import type { Db } from '../db.ts'
import type { Lease } from '../leases.ts'
import type { Logger } from '../log.ts'
import { serviceOf } from '../log.ts'
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

/** How one caller writes each outcome of its claimed row. */
export interface SendRecorder {
  /** What the log lines call the message, e.g. "DM to @ana", "Answer to @ana". */
  label: string
  /** Ids the log lines carry. */
  logContext: Record<string, unknown>
  sent(result: Extract<SendResult, { status: 'sent' }>): Promise<void>
  /** Send was pressed, delivery not confirmed: the thread decides later. */
  /** `seenBefore`: the thread's rows the send saw before typing, kept for the later check. */
  uncertain(reason: string, threadId: string | null, seenBefore?: string[]): Promise<void>
  /** Nothing went out (page trouble or a stop signal); returns what happens next, for the log. */
  notSent(reason: string): Promise<string>
  /** The platform refused this person. */
  refused(signal: StopSignal, reason: string): Promise<void>
  /** Nothing was attempted (a slow page, the runner let go of the account): it goes again. */
  deferred(reason: string): Promise<void>
  /** The page changed; pressed says whether send had been pressed. */
  siteChanged(incidentId: string, pressed: boolean, step: string, threadId: string | null): Promise<void>
}

/** Whether a signal means the account must stop (page trouble is only retried later). */
export function stopsAccount(signal: StopSignal | undefined): signal is StopSignal {
  return signal !== undefined && signal.scope === 'account' && signal.kind !== 'page_error'
}

/** Types and sends a claimed message, records the page's answer, and settles the account's side. */
export async function sendClaimed(
  deps: EngineDeps,
  target: DmTarget,
  text: string,
  record: SendRecorder,
): Promise<SendOutcome> {
  const { db, account } = deps
  const service = serviceOf(account.platform)
  const log = deps.log.with({ accountId: account.id, ...record.logContext })
  if (!deps.lease.valid || deps.signal.aborted) {
    await record.deferred('the runner let go of the account before sending')
    return 'deferred'
  }

  let result: SendResult
  try {
    result = await deps.session.sendDm(target, text)
  } catch (error) {
    if (!isSiteChange(error)) throw error
    const incident = await recordSiteChange(db, deps.log, error, {
      source: 'job',
      packVersion: deps.packVersion ?? null,
      accountId: account.id,
    })
    await record.siteChanged(incident, false, error.step, null)
    await log.info(service, `${record.label} was not sent: the site changed`, { incidentId: incident })
    return 'site_changed'
  }

  if (result.status === 'sent') {
    await record.sent(result)
    await adjustTrust(db, account.id, 0.01)
    await log.info(service, `${record.label} sent`)
    return 'sent'
  }
  if (result.status === 'uncertain') {
    if (result.siteChange) {
      const incident = await recordSiteChange(db, deps.log, result.siteChange, {
        source: 'job',
        packVersion: deps.packVersion ?? null,
        accountId: account.id,
      })
      await record.siteChanged(incident, true, result.siteChange.step, result.threadId)
      await log.info(service, `${record.label} is uncertain: the site changed`, { incidentId: incident })
      return 'site_changed'
    }
    await record.uncertain(result.reason, result.threadId, result.seenBefore)
    await log.warn(service, `${record.label} could not be confirmed; it will be checked in the thread`, {
      reason: result.reason,
    })
    await adjustTrust(db, account.id, -0.02)
    if (stopsAccount(result.signal)) {
      await stopAccount(db, account, result.signal)
      return 'account_stopped'
    }
    return (await tripBreakerIfNeeded(db, account)) ? 'account_stopped' : 'uncertain'
  }
  if (result.outOfTime || result.retryAt) {
    // the machine or the network was slow, or the platform asked to wait (an API rate limit): not
    // the account's fault, no trust change, nothing for the breaker; the lead stays due
    await record.deferred(result.reason)
    await log.info(service, `${record.label} waits: the page was slow before anything was typed`, {
      reason: result.reason,
    })
    return 'deferred'
  }
  const signal = result.signal
  if (signal?.scope === 'lead') {
    await record.refused(signal, `${result.reason} (${signal.code})`)
    await log.info(service, `${record.label} refused: ${signal.kind} (${signal.code})`)
    return 'skipped'
  }
  if (stopsAccount(signal)) {
    await record.notSent(`${result.reason} (${signal.code})`)
    const status = await stopAccount(db, account, signal)
    await log.warn(service, `@${account.username} ${status} after ${signal.kind} (${signal.code})`, {
      code: signal.code,
      kind: signal.kind,
    })
    return 'account_stopped'
  }
  const next = await record.notSent(result.reason)
  await log.warn(service, `${record.label} failed before it was sent (${next})`, { reason: result.reason })
  return (await tripBreakerIfNeeded(db, account)) ? 'account_stopped' : 'not_sent'
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
