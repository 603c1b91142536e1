// Sending one X DM with platforms.md's delivery rule: it counts as sent only when the thread URL
// is unchanged, the composer cleared, exactly one new row with the exact text appeared and reached
// sent/delivered, and no error text showed. Anything less after pressing send is uncertain.
import type { Page } from 'puppeteer-core'
import { textOf, waitForFirst } from '../../browser/page-wait.ts'
import { typeLikeHuman, typingBudgetMs } from '../../browser/typing.ts'
import {
  type DmTarget,
  markPressingSend,
  newSendState,
  OperationTimeoutError,
  type SendResult,
  type SendState,
  StopSignalError,
  stopSignal,
} from '../types.ts'
import { X_PATHS, X_SELECTORS, X_SEND_ERROR_TEXTS, X_SEND_STATUS } from './selectors.ts'
import type { XSession } from './session.ts'
import { xSignalFromText } from './signals.ts'
import { composerText, readRows } from './thread-dom.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const delivered: readonly string[] = X_SEND_STATUS.delivered
const failedStatus: readonly string[] = X_SEND_STATUS.failed

/** One-to-one X Chat thread id: both user ids joined by "-", smaller first. */
export function xThreadId(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? `${a}-${b}` : `${b}-${a}`
}

export async function sendXDm(session: XSession, target: DmTarget, text: string): Promise<SendResult> {
  if (!text.trim()) return { status: 'failed', threadId: null, reason: 'The message is empty.' }
  const state = newSendState(target.threadId ?? null)
  const budget =
    session.timeouts.operationMs + typingBudgetMs(text, session.typing) + session.timeouts.confirmMs
  try {
    return await session.run('send DM', budget, (page) => send(session, page, target, text, state))
  } catch (error) {
    state.abandoned = true
    const reason = error instanceof Error ? error.message : String(error)
    const signal = error instanceof StopSignalError ? error.signal : undefined
    // after pressing send nothing proves the message did not go out
    if (state.pressedSend)
      return { status: 'uncertain', threadId: state.threadId, reason, ...(signal ? { signal } : {}) }
    if (error instanceof OperationTimeoutError || signal || error instanceof Error)
      return { status: 'failed', threadId: state.threadId, reason, ...(signal ? { signal } : {}) }
    throw error
  }
}

async function send(
  session: XSession,
  page: Page,
  target: DmTarget,
  text: string,
  state: SendState,
): Promise<SendResult> {
  const threadId =
    target.threadId ??
    (target.userId
      ? xThreadId(session.user.id, target.userId)
      : await threadFromProfile(session, page, target))
  if (typeof threadId !== 'string') return threadId
  state.threadId = threadId
  const threadPath = X_PATHS.thread(threadId)
  await session.openChatPage(page, threadPath, X_SELECTORS.composer)
  if (await page.$(X_SELECTORS.emptyState))
    return { status: 'failed', threadId, reason: 'X says this conversation does not exist.' }
  const before = new Set((await readRows(page)).map((r) => r.id))
  const composer = await page.$(X_SELECTORS.composer)
  if (!composer) throw new Error('X Chat composer is missing')
  await typeLikeHuman(page, composer, text, session.typing)
  if ((await composerText(page)) !== text) {
    await composer.click({ count: 3 })
    await page.keyboard.press('Backspace')
    return {
      status: 'failed',
      threadId,
      reason: 'The composer did not hold the exact text after typing; nothing was sent.',
    }
  }
  const button = await page.$(X_SELECTORS.sendButton)
  if (!button || (await button.evaluate((b) => (b as unknown as { disabled?: boolean }).disabled === true)))
    return { status: 'failed', threadId, reason: 'The send button is missing or disabled; nothing was sent.' }
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
  const username = target.username?.replace(/^@/, '').trim()
  if (!username)
    return { status: 'failed', threadId: null, reason: 'No thread, user id or username to send to.' }
  await session.goto(page, X_PATHS.profile(username))
  const outcome = await waitForFirst(
    page,
    {
      button: { selector: X_SELECTORS.dmFromProfile },
      missing: { selector: X_SELECTORS.emptyState },
      profile: { selector: X_SELECTORS.profileName },
    },
    session.timeouts.navigationMs,
  )
  session.assertSignedIn(page)
  if (outcome === 'missing')
    return {
      status: 'failed',
      threadId: null,
      reason: `@${username} does not exist.`,
      signal: stopSignal('x', 'user_not_found', 'user_not_found', `@${username} does not exist.`),
    }
  if (outcome === 'profile' && !(await page.$(X_SELECTORS.dmFromProfile))) {
    const message = `@${username} does not accept messages from this account.`
    return {
      status: 'failed',
      threadId: null,
      reason: message,
      signal: stopSignal('x', 'cannot_message', '349', message),
    }
  }
  if (!outcome) throw new Error(`The profile of @${username} did not load in time`)
  await page.click(X_SELECTORS.dmFromProfile)
  const opened = await waitForFirst(
    page,
    {
      thread: { url: (url) => /^\/i\/chat\/\d+-\d+$/.test(url.pathname) },
      pin: { url: (url) => url.pathname.startsWith(X_PATHS.chatPin) },
    },
    session.timeouts.navigationMs,
  )
  if (opened === 'thread') return new URL(page.url()).pathname.split('/').pop() ?? ''
  if (opened === 'pin') {
    const next = new URL(page.url()).searchParams.get('next') ?? ''
    const id = /^\/i\/chat\/(\d+-\d+)$/.exec(next)?.[1]
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
  const deadline = Date.now() + session.timeouts.confirmMs
  let failedSince: number | undefined
  let lastStatus = 'no new row'
  while (Date.now() < deadline) {
    await sleep(250)
    if (new URL(page.url()).pathname !== threadPath)
      return {
        status: 'uncertain',
        threadId,
        reason: `The page left the thread after send (now ${new URL(page.url()).pathname}).`,
      }
    const feedback = await textOf(page, `${X_SELECTORS.toast}, ${X_SELECTORS.alert}`)
    const signal = xSignalFromText(feedback)
    const mine = (await readRows(page)).filter((r) => !before.has(r.id) && r.direction === 'outgoing')
    if (signal && signal.kind !== 'page_error' && mine.every((r) => failedStatus.includes(r.status))) {
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
    if (!row) continue
    lastStatus = row.status
    if (row.text !== text)
      return { status: 'uncertain', threadId, reason: 'The new message row does not hold the exact text.' }
    if (failedStatus.includes(row.status)) {
      failedSince ??= Date.now()
      if (Date.now() - failedSince > 2_000)
        return { status: 'uncertain', threadId, reason: 'The message row failed without a reason X states.' }
      continue
    }
    if (!delivered.includes(row.status)) continue
    const pageText = await textOf(page, 'body')
    const errorText = X_SEND_ERROR_TEXTS.find((t) => pageText.includes(t))
    if (errorText) return { status: 'uncertain', threadId, reason: `The page shows "${errorText}".` }
    if ((await composerText(page)) !== '')
      return { status: 'uncertain', threadId, reason: 'The composer was not cleared after send.' }
    return { status: 'sent', threadId, messageId: row.id, sentAt: row.at ?? new Date().toISOString() }
  }
  return {
    status: 'uncertain',
    threadId,
    reason: `Not confirmed within ${session.timeouts.confirmMs / 1000} s (${lastStatus}).`,
  }
}
