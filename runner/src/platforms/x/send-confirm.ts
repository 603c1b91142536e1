// After pressing send on X: watch the page until it shows our message, then read the thread again
// for its id. The page's own row (laid out as ours, the exact text, not among the rows read before
// typing) appears at once, before X stored anything, so it is evidence the page took the send, not
// proof it went out: only the row X still shows when the thread is read again proves it (and gives
// its message id). X's refusals and error texts, a cleared composer that never showed a row, and a
// row that vanishes on the re-read are all answered here.
import type { Page } from 'puppeteer-core'
import { textOf } from '../../browser/page-wait.ts'
import { within } from '../facts.ts'
import { layoutChanged } from '../layout.ts'
import type { SendResult, ThreadMessage } from '../types.ts'
import type { XPageContext } from './context.ts'
import { xSignalFromText } from './signals.ts'
import { chatText, composerText, readRows } from './thread-dom.ts'

/** How long our row must show without an error before the thread is read again. */
const QUIET_MS = 1_000
/** How long a row X marks failed may take to show the reason X states. */
const FAILED_GRACE_MS = 2_000

type Thread = { id: string; path: string }

export async function confirmSend(
  session: XPageContext,
  page: Page,
  thread: Thread,
  text: string,
  before: Set<string>,
): Promise<SendResult> {
  const shown = await watchPage(session, page, thread, text, before)
  if (shown.status !== 'sent') return shown
  return reread(session, page, thread, text, before)
}

/** Our new rows: laid out as ours, not among the rows read before typing. */
function ownNewRows(rows: ThreadMessage[], before: Set<string>): ThreadMessage[] {
  return rows.filter((r) => !before.has(r.id) && r.direction === 'outgoing')
}

/** The page's answer to the send: its refusal or error, or our row standing quietly (`sent`, to be proven). */
async function watchPage(
  session: XPageContext,
  page: Page,
  thread: Thread,
  text: string,
  before: Set<string>,
): Promise<SendResult> {
  const { app, chat, texts } = session.facts
  let failedSince: number | undefined
  let quietSince: number | undefined
  let sawRow = false
  const verdict = await session.confirmOnPage(page, thread, 250, async () => {
    // X's refusals come as toasts (the overlays' shadow root), its errors in the chat itself
    const feedback = await textOf(
      page,
      `${app.toast}, ${within(chat.overlays, chat.alert)}, ${within(chat.host, chat.alert)}`,
    )
    const signal = xSignalFromText(session.facts, feedback)
    const mine = ownNewRows(await readRows(session, page, 'send'), before)
    if (signal && signal.kind !== 'page_error' && mine.every((r) => r.status === 'failed'))
      // X refused the send with a known error: it was not delivered
      return { status: 'failed', threadId: thread.id, reason: signal.message, signal }
    if (signal) return { status: 'uncertain', threadId: thread.id, reason: signal.message, signal }
    if (mine.length > 1)
      return {
        status: 'uncertain',
        threadId: thread.id,
        reason: `${mine.length} new message rows appeared after one send.`,
      }
    const row = mine[0]
    if (!row) return undefined
    sawRow = true
    if (row.text === '')
      return {
        status: 'uncertain',
        threadId: thread.id,
        reason: 'Our new message row shows no text where the facts look for it.',
        siteChange: await layoutChanged(page, 'x', 'send', 'confirm: text of the sent message'),
      }
    if (row.text !== text)
      return {
        status: 'uncertain',
        threadId: thread.id,
        reason: 'The new message row does not hold the exact text.',
      }
    if (row.status === 'failed') {
      quietSince = undefined
      failedSince ??= Date.now()
      if (Date.now() - failedSince > FAILED_GRACE_MS)
        return {
          status: 'uncertain',
          threadId: thread.id,
          reason: 'The message row failed without a reason X states.',
        }
      return undefined
    }
    const shownText = await chatText(session, page)
    const errorText = texts.sendErrors.find((t) => shownText.includes(t))
    if (errorText)
      return { status: 'uncertain', threadId: thread.id, reason: `The page shows "${errorText}".` }
    if ((await composerText(session, page)) !== '')
      return { status: 'uncertain', threadId: thread.id, reason: 'The composer was not cleared after send.' }
    quietSince ??= Date.now()
    if (Date.now() - quietSince < QUIET_MS) return undefined
    return {
      status: 'sent',
      threadId: thread.id,
      messageId: row.id,
      sentAt: row.at ?? new Date().toISOString(),
    }
  })
  if (verdict) return verdict
  const reason = `Not confirmed within ${session.timeouts.confirmMs / 1000} s.`
  // the page took the text (the composer cleared) but never drew a row of ours: the rows changed
  if (!sawRow && (await composerText(session, page)) === '')
    return {
      status: 'uncertain',
      threadId: thread.id,
      reason: `${reason} No message row of ours appeared.`,
      siteChange: await layoutChanged(page, 'x', 'send', 'confirm: our new message row'),
    }
  return { status: 'uncertain', threadId: thread.id, reason }
}

/** The thread read again: our row with the exact text is there (sent, with X's id) or it is not. */
async function reread(
  session: XPageContext,
  page: Page,
  thread: Thread,
  text: string,
  before: Set<string>,
): Promise<SendResult> {
  const { chat } = session.facts
  const opened = await session.openChatPage(
    page,
    thread.path,
    chat.conversationPanel,
    'send',
    'confirm: the thread read again',
  )
  const found =
    opened === 'ready'
      ? ownNewRows(await readRows(session, page, 'send'), before).filter((r) => r.text === text)
      : []
  const row = found[0]
  if (found.length === 1 && row)
    return {
      status: 'sent',
      threadId: thread.id,
      messageId: row.id,
      sentAt: row.at ?? new Date().toISOString(),
    }
  return {
    status: 'uncertain',
    threadId: thread.id,
    reason:
      found.length > 1
        ? `${found.length} messages of ours with this text show in the thread read again.`
        : 'Our message showed but was not in the thread read again (not stored by X yet, or lost).',
  }
}
