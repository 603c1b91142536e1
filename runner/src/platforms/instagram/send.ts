// Sending one Instagram DM: open the thread (or find the user through "New message"), type into
// the composer, press Enter, and confirm from the thread's own JSON that exactly one new item
// from us with the exact text appeared and the composer cleared. Anything less after pressing
// Enter is uncertain; a refusal dialog (feedback_required, "Please wait", "can't receive") is
// a stop signal. A signed-in thread page without its composer is a site change (LayoutChangedError).
import type { Page } from 'puppeteer-core'
import { deepElement, deepElements, deepEval } from '../../browser/deep-query.ts'
import { clickByText, textOf, waitForFirst } from '../../browser/page-wait.ts'
import { typeLikeHuman } from '../../browser/typing.ts'
import { fillPath, regexOf } from '../facts.ts'
import { layoutChanged } from '../layout.ts'
import {
  type DmTarget,
  markPressingSend,
  type SendResult,
  type SendState,
  StopSignalError,
  stopSignal,
} from '../types.ts'
import { igMessages } from './items.ts'
import { igFetchInPage } from './page-api.ts'
import type { InstagramSession } from './session.ts'
import { igSignalFromResponse, igSignalFromText } from './signals.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function sendIgDm(session: InstagramSession, target: DmTarget, text: string): Promise<SendResult> {
  return session.sendOnPage(target, text, (page, state) => send(session, page, target, text, state))
}

async function threadItems(session: InstagramSession, page: Page, threadId: string) {
  const path = fillPath(session.facts.api.thread, { id: threadId, limit: '20' })
  const answer = await igFetchInPage(session.facts, page, path)
  const signal = igSignalFromResponse(session.facts, answer.status, answer.body)
  if (signal) throw new StopSignalError(signal)
  if (answer.status !== 200) throw new Error(`Instagram thread ${threadId} answered HTTP ${answer.status}`)
  return igMessages((answer.body as { thread?: unknown }).thread)
}

async function composerText(session: InstagramSession, page: Page): Promise<string> {
  const text = await deepEval(
    page,
    session.facts.selectors.composer,
    (elements) => (elements[0] as HTMLElement | undefined)?.innerText ?? '',
    null,
  ).catch(() => '')
  return text.replace(/\n$/, '')
}

async function send(
  session: InstagramSession,
  page: Page,
  target: DmTarget,
  text: string,
  state: SendState,
): Promise<SendResult> {
  const threadId = target.threadId ?? (await threadFromSearch(session, page, target))
  if (typeof threadId !== 'string') return threadId
  state.threadId = threadId
  const { selectors } = session.facts
  await session.goto(page, session.path('thread', { id: threadId }))
  const ready = await waitForFirst(
    page,
    { composer: { selector: selectors.composer }, signedIn: { selector: selectors.signedIn } },
    session.timeouts.navigationMs,
  )
  session.assertSignedIn(page)
  if (!ready) return { status: 'failed', threadId, reason: 'The Instagram thread did not show a composer.' }
  // the signed-in page rendered: its composer may follow a moment later, else the page changed
  if (
    ready === 'signedIn' &&
    !(await waitForFirst(page, { composer: { selector: selectors.composer } }, 2_500))
  )
    throw await layoutChanged(page, 'instagram', 'send', 'open thread: composer')
  state.seen = await threadItems(session, page, threadId)
  const before = new Set(state.seen.map((m) => m.id))
  const composer = await deepElement(page, selectors.composer)
  if (!composer) throw await layoutChanged(page, 'instagram', 'send', 'open thread: composer')
  await typeLikeHuman(page, composer, text, session.typing)
  if ((await composerText(session, page)) !== text) {
    await composer.evaluate((el) => {
      el.textContent = ''
    })
    return {
      status: 'failed',
      threadId,
      reason: 'The composer did not hold the exact text after typing; nothing was sent.',
    }
  }
  markPressingSend(state)
  await page.keyboard.press('Enter')
  return confirm(session, page, threadId, text, before)
}

/** "New message" → search the username → select it → Chat: the thread id, or why not. */
async function threadFromSearch(
  session: InstagramSession,
  page: Page,
  target: DmTarget,
): Promise<string | SendResult> {
  const { selectors, texts } = session.facts
  const username = target.username?.replace(/^@/, '').trim()
  if (!username) return { status: 'failed', threadId: null, reason: 'No thread or username to send to.' }
  await session.goto(page, session.path('newMessage'))
  await waitForFirst(page, { box: { selector: selectors.searchBox } }, session.timeouts.navigationMs)
  session.assertSignedIn(page)
  const box = await deepElement(page, selectors.searchBox)
  if (!box) throw new Error('The Instagram "New message" search box is missing')
  await typeLikeHuman(page, box, username, session.typing)
  const deadline = Date.now() + session.timeouts.navigationMs
  let picked = false
  let noResults = false
  while (!picked && !noResults && Date.now() < deadline) {
    await sleep(250)
    noResults = regexOf(texts.noSearchResults).test(await textOf(page, selectors.dialog))
    for (const row of await deepElements(page, selectors.searchResult)) {
      const spans = await row.$$eval('span', (els) => els.map((el) => el.textContent?.trim() ?? ''))
      if (spans.some((s) => s.toLowerCase() === username.toLowerCase())) {
        await row.click()
        picked = true
        break
      }
    }
  }
  if (!picked) {
    const message = `Instagram finds no user @${username}.`
    return {
      status: 'failed',
      threadId: null,
      reason: message,
      signal: stopSignal('instagram', 'user_not_found', 'user_not_found', message),
    }
  }
  await clickByText(page, selectors.button, texts.chatButton)
  const threadPath = regexOf(session.facts.threadPath)
  const opened = await waitForFirst(
    page,
    { thread: { url: (url) => threadPath.test(url.pathname) } },
    session.timeouts.navigationMs,
  )
  if (!opened) throw new Error(`Choosing @${username} did not open a thread`)
  return threadPath.exec(new URL(page.url()).pathname)?.[1] ?? ''
}

async function confirm(
  session: InstagramSession,
  page: Page,
  threadId: string,
  text: string,
  before: Set<string>,
): Promise<SendResult> {
  const thread = { id: threadId, path: session.path('thread', { id: threadId }) }
  const verdict = await session.confirmOnPage(
    page,
    thread,
    500,
    async () => {
      const signal = igSignalFromText(session.facts, await textOf(page, session.facts.selectors.dialog))
      const mine = (await threadItems(session, page, threadId)).filter(
        (m) => !before.has(m.id) && m.direction === 'outgoing',
      )
      if (signal && mine.length === 0) return { status: 'failed', threadId, reason: signal.message, signal }
      if (signal) return { status: 'uncertain', threadId, reason: signal.message, signal }
      if (mine.length > 1)
        return { status: 'uncertain', threadId, reason: `${mine.length} new items appeared after one send.` }
      const item = mine[0]
      if (!item) return undefined
      if (item.text !== text)
        return { status: 'uncertain', threadId, reason: 'The new item does not hold the exact text.' }
      if ((await composerText(session, page)) !== '')
        return { status: 'uncertain', threadId, reason: 'The composer was not cleared after send.' }
      return { status: 'sent', threadId, messageId: item.id, sentAt: item.at ?? new Date().toISOString() }
    },
    // a page sent to the login screen is the session's end, not an unconfirmed send
    () => session.assertSignedIn(page),
  )
  if (verdict) return verdict
  return {
    status: 'uncertain',
    threadId,
    reason: `Not confirmed within ${session.timeouts.confirmMs / 1000} s.`,
  }
}
