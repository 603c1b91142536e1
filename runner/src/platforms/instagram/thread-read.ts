// Reading a whole Instagram thread from its 2026 page: the list draws only the newest messages and
// drops the newest as older ones scroll in, so the reader scrolls to the top window by window and
// joins the windows where they overlap. The page shows no ids or times: each message gets an id
// derived from the thread, its side, its words and how many earlier messages on that side had the
// same words. Counted from the thread's start, that id is the same on every read, whether or not
// the direct_v2 JSON answers, so a message first stored from the page is never stored twice.
import { createHash } from 'node:crypto'
import type { Page } from 'puppeteer-core'
import type { ThreadMessage } from '../types.ts'
import { type PageMessage, readThreadPage } from './thread-page.ts'

/** A thread longer than this is read from its newest messages only (its ids then count from there). */
export const MAX_THREAD_MESSAGES = 200
/** How long the list may take to draw older messages after a scroll before the top is taken as reached. */
const OLDER_DRAWN_MS = 1_500

type Selectors = { messageList: string; messageText: string }

/** The id of a message the page shows none for (see the file's comment). */
export function pageMessageId(
  threadId: string,
  direction: ThreadMessage['direction'],
  text: string,
  occurrence: number,
): string {
  const key = `${threadId}\n${direction}\n${occurrence}\n${text}`
  return `page:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`
}

/** The messages with their derived ids, oldest first (no time: the page shows none). */
export function withPageIds(threadId: string, messages: PageMessage[]): ThreadMessage[] {
  const seen = new Map<string, number>()
  return messages.map((m) => {
    const direction = m.outgoing ? 'outgoing' : 'incoming'
    const key = `${direction}\n${m.text}`
    const occurrence = seen.get(key) ?? 0
    seen.set(key, occurrence + 1)
    return {
      id: pageMessageId(threadId, direction, m.text, occurrence),
      text: m.text,
      direction,
      status: 'sent',
      at: null,
    }
  })
}

/**
 * The JSON's exact times on the page's messages, matched from the newest back while side and words
 * agree (the JSON lists only the newest items). The ids stay the page's.
 */
export function withJsonTimes(messages: ThreadMessage[], json: ThreadMessage[] | undefined): ThreadMessage[] {
  if (!json) return messages
  const timed = messages.slice()
  for (let i = timed.length - 1, j = json.length - 1; i >= 0 && j >= 0; i--, j--) {
    const page = timed[i]
    const item = json[j]
    if (!page || !item || page.text !== item.text || page.direction !== item.direction) break
    timed[i] = { ...page, at: item.at }
  }
  return timed
}

const same = (a: PageMessage | undefined, b: PageMessage | undefined) =>
  a !== undefined && b !== undefined && a.text === b.text && a.outgoing === b.outgoing

/** `older` (a window scrolled up) joined before `read`, where the end of one starts the other. */
export function joinWindows(older: PageMessage[], read: PageMessage[]): PageMessage[] {
  for (let overlap = Math.min(older.length, read.length); overlap > 0; overlap--) {
    const tail = older.slice(older.length - overlap)
    if (tail.every((m, i) => same(m, read[i]))) return [...older.slice(0, older.length - overlap), ...read]
  }
  return [...older, ...read]
}

// sent to the page as source: a bundler's name-keeping wrapper would not exist there
const SCROLL_TO_TOP = `(selector) => {
  const list = document.querySelector(selector);
  if (!list || list.scrollHeight <= list.clientHeight) return false;
  list.scrollTop = list.scrollHeight * (getComputedStyle(list).flexDirection === 'column-reverse' ? -1 : 0);
  list.dispatchEvent(new Event('scroll'));
  return true;
}`

/** The whole thread (up to MAX_THREAD_MESSAGES), oldest first; null when the page has no message list. */
export async function readWholeThread(page: Page, selectors: Selectors): Promise<PageMessage[] | null> {
  let read = await readThreadPage(page, selectors)
  if (!read) return null
  let window = read
  while (read.length < MAX_THREAD_MESSAGES) {
    const scrolled = await page.evaluate(`(${SCROLL_TO_TOP})(${JSON.stringify(selectors.messageList)})`)
    if (!scrolled) break
    const older = await olderWindow(page, selectors, window)
    if (!older) break
    window = older
    read = joinWindows(older, read)
  }
  return read.slice(-MAX_THREAD_MESSAGES)
}

/** The window the list draws once older messages came in, or undefined when none did (the top). */
async function olderWindow(
  page: Page,
  selectors: Selectors,
  shown: PageMessage[],
): Promise<PageMessage[] | undefined> {
  const deadline = Date.now() + OLDER_DRAWN_MS
  do {
    const now = (await readThreadPage(page, selectors)) ?? []
    if (now.length > 0 && (now.length !== shown.length || now.some((m, i) => !same(m, shown[i])))) return now
    await new Promise((resolve) => setTimeout(resolve, 100))
  } while (Date.now() < deadline)
  return undefined
}
