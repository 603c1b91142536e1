// "New message" → search the username → select it → Chat: the thread id, or why not. The search box
// is found by its role, label and type (inputs found by `name` broke on the login form in 2026).
import type { Page } from 'puppeteer-core'
import { deepElement, deepElements } from '../../browser/deep-query.ts'
import { clickByText, textOf, waitForFirst } from '../../browser/page-wait.ts'
import { typeLikeHuman } from '../../browser/typing.ts'
import { regexOf } from '../facts.ts'
import { type DmTarget, type SendResult, stopSignal } from '../types.ts'
import type { IgPageContext } from './context.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function threadFromSearch(
  session: IgPageContext,
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
