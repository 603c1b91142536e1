// Whether an Instagram DM went out, from the page: the thread page draws our message at once (before
// Instagram has it), so the proof is the thread opened again showing one new message of ours, laid
// out as ours, holding the exact text, below what it showed before the send. A refusal dialog or a
// message marked not delivered is read first. The message's id is the page id every later read of
// the thread gives it (thread-read.ts); the direct_v2 JSON, where it answers, only adds its time.
// Anything short of the proof within confirmMs is uncertain.
import type { Page } from 'puppeteer-core'
import { textOf, waitForFirst } from '../../browser/page-wait.ts'
import { regexOf } from '../facts.ts'
import type { SendResult, StopSignal } from '../types.ts'
import type { IgPageContext } from './context.ts'
import { threadJsonIfServed } from './inbox.ts'
import { igSignalFromText } from './signals.ts'
import { composerText, newOwnMessages, type PageMessage, readThreadPage } from './thread-page.ts'
import { readWholeThread, withJsonTimes, withPageIds } from './thread-read.ts'

/**
 * How long our drawn message stays on the page (for a refusal to show) before the thread is opened
 * again to prove it. Short: opening the thread marks what it shows read, as a person looking would,
 * so the proof comes before a reply is likely.
 */
const SETTLE_MS = 600
/** The least time between two openings of the thread while waiting for the proof. */
const REOPEN_GAP_MS = 1_000

export interface PressedSend {
  threadId: string
  text: string
  /** What the thread page showed before typing. */
  before: PageMessage[]
}

export async function confirmIgSend(
  session: IgPageContext,
  page: Page,
  sent: PressedSend,
): Promise<SendResult> {
  const { selectors, texts } = session.facts
  const { threadId, text } = sent
  const thread = { id: threadId, path: session.path('thread', { id: threadId }) }
  const pressedAt = Date.now()
  let drawnAt = 0
  let reopenedAt = 0

  /** Opens the thread again: how many new messages of ours with the text it shows. */
  const reopen = async (): Promise<number> => {
    reopenedAt = Date.now()
    await session.goto(page, thread.path)
    await waitForFirst(page, { list: { selector: selectors.messageList } }, session.timeouts.navigationMs)
    session.assertSignedIn(page)
    const after = await readThreadPage(page, selectors)
    return after ? newOwnMessages(sent.before, after, text) : 0
  }
  const refused = (signal: StopSignal, delivered: number): SendResult =>
    delivered > 0
      ? { status: 'uncertain', threadId, reason: signal.message, signal }
      : { status: 'failed', threadId, reason: signal.message, signal }

  const verdict = async (delivered: number): Promise<SendResult | undefined> => {
    if (delivered > 1)
      return { status: 'uncertain', threadId, reason: `${delivered} new messages appeared after one send.` }
    if (delivered === 0) return undefined
    // the id every later read of the thread gives it, and the JSON's time where it answers
    const whole = await readWholeThread(page, selectors)
    const json = await threadJsonIfServed(session, page, threadId).catch(() => undefined)
    const ours = withJsonTimes(withPageIds(threadId, whole ?? []), json).findLast(
      (m) => m.direction === 'outgoing' && m.text === text,
    )
    if (!ours) return undefined
    return { status: 'sent', threadId, messageId: ours.id, sentAt: ours.at ?? new Date().toISOString() }
  }

  const check = async (): Promise<SendResult | undefined> => {
    if (reopenedAt === 0) {
      const signal = igSignalFromText(session.facts, await textOf(page, selectors.dialog))
      if (signal) return refused(signal, await reopen())
      if (regexOf(texts.sendFailed).test(await textOf(page, selectors.messageList))) {
        // marked not delivered: Instagram may still have it (the answer was lost), so look
        return verdict(await reopen())
      }
      const shown = (await readThreadPage(page, selectors)) ?? []
      if (
        drawnAt === 0 &&
        newOwnMessages(sent.before, shown, text) > 0 &&
        (await composerText(page, selectors.composer)) === ''
      )
        drawnAt = Date.now()
      if (Date.now() - (drawnAt || pressedAt + 2 * SETTLE_MS) < SETTLE_MS) return undefined
    } else if (Date.now() - reopenedAt < REOPEN_GAP_MS) return undefined
    return verdict(await reopen())
  }

  const result = await session.confirmOnPage(
    page,
    thread,
    300,
    check,
    // a page sent to the login screen is the session's end, not an unconfirmed send
    () => session.assertSignedIn(page),
  )
  return (
    result ?? {
      status: 'uncertain',
      threadId,
      reason: `Not confirmed from the thread within ${session.timeouts.confirmMs / 1000} s.`,
    }
  )
}
