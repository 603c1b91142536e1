// Sending one X DM, proven from what the page shows (platforms.md: no reader of x.com describes a
// sent-status marker): it counts as sent only when the thread URL is unchanged, the composer
// cleared, exactly one new row laid out as ours holding the exact text appeared (new: not among the
// rows read before typing), no error text showed, and the thread read again still shows that row,
// whose id is the message id. A status icon, where the page draws one, is never required. Anything
// less after pressing send is uncertain. A lead whose closed inbox X shows in place of the composer
// is refused (skip the lead). A page that is not what the facts describe is a LayoutChangedError:
// thrown before pressing send (nothing was sent), after it an uncertain send carrying `siteChange`;
// so is a profile without its Message button, or one whose button leads nowhere known.
import type { Page } from 'puppeteer-core'
import { deepElement } from '../../browser/deep-query.ts'
import { textOf, waitForFirst } from '../../browser/page-wait.ts'
import { typeLikeHuman } from '../../browser/typing.ts'
import { regexOf, within } from '../facts.ts'
import { layoutChanged } from '../layout.ts'
import {
  type DmTarget,
  markPressingSend,
  type SendResult,
  type SendState,
  StopSignalError,
  stopSignal,
} from '../types.ts'
import { SETTLE_MS, type XPageContext } from './context.ts'
import { confirmSend } from './send-confirm.ts'
import { xSignalFromText } from './signals.ts'
import { closedInboxNotice, composerText, readRows } from './thread-dom.ts'

/** One-to-one X Chat thread id: both user ids joined by "-", smaller first. */
export function xThreadId(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? `${a}-${b}` : `${b}-${a}`
}

export function sendXDm(session: XPageContext, target: DmTarget, text: string): Promise<SendResult> {
  return session.sendOnPage(target, text, (page, state) => send(session, page, target, text, state))
}

async function send(
  session: XPageContext,
  page: Page,
  target: DmTarget,
  text: string,
  state: SendState,
): Promise<SendResult> {
  const { chat } = session.facts
  const threadId =
    target.threadId ??
    (target.userId
      ? xThreadId(session.user.id, target.userId)
      : await threadFromProfile(session, page, target))
  if (typeof threadId !== 'string') return threadId
  state.threadId = threadId
  const threadPath = session.path('thread', { id: threadId })
  const opened = await session.openChatPage(
    page,
    threadPath,
    chat.conversationPanel,
    'send',
    'open thread: conversation panel',
    { reuse: true },
  )
  if (opened === 'missing')
    return { status: 'failed', threadId, reason: 'X says this conversation does not exist.' }
  state.seen = await readRows(session, page, 'send')
  const before = new Set(state.seen.map((r) => r.id))
  const composer = await deepElement(page, within(chat.host, chat.composer))
  if (!composer) {
    const notice = await closedInboxNotice(session, page)
    if (notice) return closedInbox(threadId, notice)
    throw await layoutChanged(page, 'x', 'send', 'open thread: composer')
  }
  await typeLikeHuman(page, composer, text, session.typing)
  if ((await composerText(session, page)) !== text) {
    // cleared with key events, as a person would: the composer follows only what it is typed
    await composer.focus()
    await page.keyboard.down('Control')
    await page.keyboard.press('a')
    await page.keyboard.up('Control')
    await page.keyboard.press('Backspace')
    return {
      status: 'failed',
      threadId,
      reason: 'The composer did not hold the exact text after typing; nothing was sent.',
    }
  }
  const button = await deepElement(page, within(chat.host, chat.sendButton))
  if (!button) throw await layoutChanged(page, 'x', 'send', 'send: send button with text in the composer')
  if (await button.evaluate((b) => (b as HTMLButtonElement).disabled === true))
    return { status: 'failed', threadId, reason: 'The send button is disabled; nothing was sent.' }
  markPressingSend(state)
  await button.click()
  return confirmSend(session, page, { id: threadId, path: threadPath }, text, before)
}

/** The lead takes no DMs: a fact about the lead, skipped with X's own words as the reason. */
function closedInbox(threadId: string, notice: string): SendResult {
  return {
    status: 'failed',
    threadId,
    reason: notice,
    signal: stopSignal('x', 'closed_inbox', 'closed_inbox', notice),
  }
}

/** Profile → sendDMFromProfile → the thread; or why the lead cannot be messaged. */
async function threadFromProfile(
  session: XPageContext,
  page: Page,
  target: DmTarget,
): Promise<string | SendResult> {
  const { app } = session.facts
  const username = target.username?.replace(/^@/, '').trim()
  if (!username)
    return { status: 'failed', threadId: null, reason: 'No thread, user id or username to send to.' }
  let outcome: string | undefined
  for (let attempt = 0; attempt < 2; attempt++) {
    await session.goto(page, session.path('profile', { username }))
    outcome = await waitForFirst(
      page,
      {
        button: { selector: app.dmFromProfile },
        missing: { selector: app.emptyState },
        profile: { selector: app.profileName },
        signedOut: { url: session.signedOut },
        locked: { url: session.locked },
        trouble: { text: /\S/, within: `${app.primaryColumn} ${app.alert}` },
        rendered: { settled: app.primaryColumn, loading: app.loading },
      },
      session.timeouts.navigationMs,
    )
    // X's "Something went wrong" on a profile is often a release that changed under the page: reload once
    if (outcome !== 'trouble') break
  }
  session.assertSignedIn(page)
  if (outcome === 'trouble') {
    const said = await textOf(page, `${app.primaryColumn} ${app.alert}`)
    const signal = xSignalFromText(session.facts, said)
    throw signal ? new StopSignalError(signal) : new Error(`The profile of @${username} shows an error`)
  }
  if (outcome === 'rendered') {
    const late = await waitForFirst(
      page,
      {
        button: { selector: app.dmFromProfile },
        missing: { selector: app.emptyState },
        profile: { selector: app.profileName },
      },
      SETTLE_MS,
    )
    if (!late) throw await layoutChanged(page, 'x', 'send', 'profile: name or message button')
    outcome = late
  }
  if (outcome === 'missing')
    return {
      status: 'failed',
      threadId: null,
      reason: `@${username} does not exist.`,
      signal: stopSignal('x', 'user_not_found', 'user_not_found', `@${username} does not exist.`),
    }
  if (!outcome) throw new Error(`The profile of @${username} did not load in time`)
  // x.com shows Message whatever the person's DM settings (a closed inbox is a notice in the chat):
  // a profile without it is a page the adapter does not know, not a refusal by the lead
  if (
    outcome !== 'button' &&
    !(await waitForFirst(page, { button: { selector: app.dmFromProfile } }, SETTLE_MS))
  )
    throw await layoutChanged(page, 'x', 'send', 'profile: message button')
  const message = await deepElement(page, app.dmFromProfile)
  if (!message) throw await layoutChanged(page, 'x', 'send', 'profile: message button')
  await message.click()
  const threadPath = regexOf(session.facts.threadPath)
  const chatPin = session.path('chatPin')
  const opened = await waitForFirst(
    page,
    {
      thread: { url: (url) => threadPath.test(url.pathname) },
      pin: { url: (url) => url.pathname.startsWith(chatPin) },
    },
    session.timeouts.navigationMs,
  )
  if (opened === 'thread') return threadPath.exec(new URL(page.url()).pathname)?.[1] ?? ''
  if (opened === 'pin') {
    const next = new URL(page.url()).searchParams.get('next') ?? ''
    const id = threadPath.exec(next)?.[1]
    if (id) return id
  }
  session.assertSignedIn(page)
  throw await layoutChanged(page, 'x', 'send', 'profile: message button to the thread')
}
