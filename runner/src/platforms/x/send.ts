// Sending one X DM with platforms.md's delivery rule: it counts as sent only when the thread URL
// is unchanged, the composer cleared, exactly one new row of ours with the exact text appeared and
// its status icon says it was sent or delivered, and no error text showed. Anything less after
// pressing send is uncertain. A page that is not what the facts describe is a LayoutChangedError:
// thrown before pressing send (nothing was sent), after it an uncertain send carrying `siteChange`.
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
import { SETTLE_MS, type XSession } from './session.ts'
import { xSignalFromText } from './signals.ts'
import { chatText, composerText, readRows } from './thread-dom.ts'

/** One-to-one X Chat thread id: both user ids joined by "-", smaller first. */
export function xThreadId(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? `${a}-${b}` : `${b}-${a}`
}

export function sendXDm(session: XSession, target: DmTarget, text: string): Promise<SendResult> {
  return session.sendOnPage(target, text, (page, state) => send(session, page, target, text, state))
}

async function send(
  session: XSession,
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
  if (!composer) throw await layoutChanged(page, 'x', 'send', 'open thread: composer')
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
  return confirm(session, page, threadPath, threadId, text, before)
}

/** Profile → sendDMFromProfile → the thread; or why the lead cannot be messaged. */
async function threadFromProfile(
  session: XSession,
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
  if (outcome === 'profile' && !(await deepElement(page, app.dmFromProfile))) {
    const message = `@${username} does not accept messages from this account.`
    return {
      status: 'failed',
      threadId: null,
      reason: message,
      signal: stopSignal('x', 'cannot_message', '349', message),
    }
  }
  if (!outcome) throw new Error(`The profile of @${username} did not load in time`)
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
  throw new Error(`Messaging @${username} did not open a thread`)
}

async function confirm(
  session: XSession,
  page: Page,
  threadPath: string,
  threadId: string,
  text: string,
  before: Set<string>,
): Promise<SendResult> {
  const { app, chat, texts } = session.facts
  let failedSince: number | undefined
  let lastStatus = 'no new row'
  const verdict = await session.confirmOnPage(page, { id: threadId, path: threadPath }, 250, async () => {
    // X's refusals come as toasts (the overlays' shadow root), its errors in the chat itself
    const feedback = await textOf(
      page,
      `${app.toast}, ${within(chat.overlays, chat.alert)}, ${within(chat.host, chat.alert)}`,
    )
    const signal = xSignalFromText(session.facts, feedback)
    const mine = (await readRows(session, page, 'send')).filter(
      (r) => !before.has(r.id) && r.direction === 'outgoing',
    )
    if (signal && signal.kind !== 'page_error' && mine.every((r) => r.status === 'failed')) {
      // X refused the send with a known error: it was not delivered
      return { status: 'failed', threadId, reason: signal.message, signal }
    }
    if (signal) return { status: 'uncertain', threadId, reason: signal.message, signal }
    if (mine.length > 1)
      return {
        status: 'uncertain',
        threadId,
        reason: `${mine.length} new message rows appeared after one send.`,
      }
    const row = mine[0]
    if (!row) return undefined
    lastStatus = row.status || 'no status'
    if (row.text !== text)
      return { status: 'uncertain', threadId, reason: 'The new message row does not hold the exact text.' }
    if (row.status === 'failed') {
      failedSince ??= Date.now()
      if (Date.now() - failedSince > 2_000)
        return { status: 'uncertain', threadId, reason: 'The message row failed without a reason X states.' }
      return undefined
    }
    if (row.status !== 'delivered') return undefined
    const shown = await chatText(session, page)
    const errorText = texts.sendErrors.find((t) => shown.includes(t))
    if (errorText) return { status: 'uncertain', threadId, reason: `The page shows "${errorText}".` }
    if ((await composerText(session, page)) !== '')
      return { status: 'uncertain', threadId, reason: 'The composer was not cleared after send.' }
    return { status: 'sent', threadId, messageId: row.id, sentAt: row.at ?? new Date().toISOString() }
  })
  if (verdict) return verdict
  const reason = `Not confirmed within ${session.timeouts.confirmMs / 1000} s (${lastStatus}).`
  // our row with the exact text is there but no status the facts know: the marker changed, not X's speed
  if (lastStatus === 'no status')
    return {
      status: 'uncertain',
      threadId,
      reason,
      siteChange: await layoutChanged(page, 'x', 'send', 'confirm: status of the sent message'),
    }
  return { status: 'uncertain', threadId, reason }
}
