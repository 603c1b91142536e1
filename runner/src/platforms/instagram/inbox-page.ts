// The Instagram inbox (and message requests) as the page lists it: one row per conversation,
// newest first, each linking to its thread, showing the other side's name, the last message as its
// preview (ours prefixed "You: ") and an unread mark until someone opens the thread, on any device.
// No times: a row says a conversation changed by its preview and its place in the list.
import type { Page } from 'puppeteer-core'
import { waitForFirst } from '../../browser/page-wait.ts'
import { regexOf } from '../facts.ts'
import type { InboxConversation } from '../types.ts'
import type { IgPageContext } from './context.ts'

interface Row {
  href: string
  lines: string[]
  unread: boolean
}

// sent to the page as source: a bundler's name-keeping wrapper would not exist there
const READ_ROWS = `(rowSelector, unreadSelector) => Array.from(document.querySelectorAll(rowSelector)).map((row) => ({
  href: row.getAttribute('href') || '',
  // each piece of text the row draws on its own (name, preview), in document order
  lines: Array.from(row.querySelectorAll('*'))
    .filter((el) => el.children.length === 0)
    .map((el) => (el.innerText || '').trim())
    .filter((text) => text !== ''),
  unread: row.querySelector(unreadSelector) !== null,
}))`

/** The conversations one inbox page lists, in its order; [] for an empty list. */
export async function readInboxPage(
  session: IgPageContext,
  page: Page,
  path: string,
  request: boolean,
): Promise<InboxConversation[]> {
  const { selectors, texts } = session.facts
  await session.goto(page, path)
  const shown = await waitForFirst(
    page,
    { rows: { selector: selectors.inboxRow }, signedIn: { selector: selectors.signedIn } },
    session.timeouts.navigationMs,
  )
  session.assertSignedIn(page)
  if (!shown) throw new Error(`The Instagram page ${path} did not load`)
  // the signed-in frame drew first: its rows may follow a moment later, else the list is empty
  if (shown === 'signedIn') await waitForFirst(page, { rows: { selector: selectors.inboxRow } }, 2_500)
  const rows = (await page.evaluate(
    `(${READ_ROWS})(${JSON.stringify(selectors.inboxRow)}, ${JSON.stringify(selectors.unreadMark)})`,
  )) as Row[]
  const threadPath = regexOf(session.facts.threadPath)
  const ownPreview = regexOf(texts.ownPreview)
  return rows.flatMap((row) => {
    const threadId = threadPath.exec(new URL(row.href, session.baseUrl).pathname)?.[1]
    if (!threadId) return []
    const [username = '', ...rest] = row.lines
    const preview = rest.join(' ')
    const ours = ownPreview.test(preview)
    return [
      {
        threadId,
        peer: { id: null, username },
        unread: row.unread,
        request,
        lastMessage: {
          text: ours ? preview.replace(ownPreview, '') : preview,
          direction: preview === '' ? null : ours ? 'outgoing' : 'incoming',
          at: null,
        },
      },
    ]
  })
}
