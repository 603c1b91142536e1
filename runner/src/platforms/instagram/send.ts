// Sending one Instagram DM: open the thread (or find the user through "New message"), read what the
// thread page shows, type into the composer, press its Send button (Enter only where there is
// none: nothing public says Enter sends), and confirm from the page (confirm-send.ts). A notice in
// place of the composer (the lead takes no messages) skips the lead; a signed-in thread page with
// neither is a site change (LayoutChangedError). The direct_v2 thread JSON, where it still answers,
// is only extra evidence (the messages' times, so what the lead wrote before the DM is recorded).
import type { Page } from 'puppeteer-core'
import { deepElement } from '../../browser/deep-query.ts'
import { clickByText, textOf, waitForFirst } from '../../browser/page-wait.ts'
import { typeLikeHuman } from '../../browser/typing.ts'
import { regexOf } from '../facts.ts'
import { layoutChanged } from '../layout.ts'
import {
  type DmTarget,
  markPressingSend,
  type SendResult,
  type SendState,
  stopSignal,
  type ThreadMessage,
} from '../types.ts'
import { confirmIgSend } from './confirm-send.ts'
import type { IgPageContext } from './context.ts'
import { threadJsonIfServed } from './inbox.ts'
import { threadFromSearch } from './new-message.ts'
import { composerText, readThreadPage } from './thread-page.ts'
import { readWholeThread, withJsonTimes, withPageIds } from './thread-read.ts'

export function sendIgDm(session: IgPageContext, target: DmTarget, text: string): Promise<SendResult> {
  return session.sendOnPage(target, text, (page, state) => send(session, page, target, text, state))
}

async function send(
  session: IgPageContext,
  page: Page,
  target: DmTarget,
  text: string,
  state: SendState,
): Promise<SendResult> {
  const threadId = target.threadId ?? (await threadFromSearch(session, page, target))
  if (typeof threadId !== 'string') return threadId
  state.threadId = threadId
  const opened = await openThread(session, page, threadId)
  if (opened !== 'composer') return opened
  const json = await threadJsonIfServed(session, page, threadId)
  if (json?.some((m) => m.direction === 'incoming')) {
    const seen = await seenBefore(session, page, threadId, json)
    if (seen === undefined) throw await layoutChanged(page, 'instagram', 'send', 'open thread: message list')
    state.seen = seen
    // reading back scrolled the list up: open the thread again at its newest messages
    const again = await openThread(session, page, threadId)
    if (again !== 'composer') return again
  }
  const before = await readThreadPage(page, session.facts.selectors)
  if (!before) throw await layoutChanged(page, 'instagram', 'send', 'open thread: message list')
  const composer = await deepElement(page, session.facts.selectors.composer)
  if (!composer) throw await layoutChanged(page, 'instagram', 'send', 'open thread: composer')
  await typeLikeHuman(page, composer, text, session.typing)
  if ((await composerText(page, session.facts.selectors.composer)) !== text) {
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
  if (!(await clickByText(page, session.facts.selectors.button, session.facts.texts.send)))
    await page.keyboard.press('Enter')
  return confirmIgSend(session, page, { threadId, text, before })
}

/**
 * What the thread held before the DM, for what the lead wrote just before it to be recorded: the
 * page's messages with their page ids (the ids every read gives them), those the JSON dates only
 * (a message without a time could be any age).
 */
async function seenBefore(
  session: IgPageContext,
  page: Page,
  threadId: string,
  json: ThreadMessage[],
): Promise<ThreadMessage[] | undefined> {
  const whole = await readWholeThread(page, session.facts.selectors)
  if (!whole) return undefined
  return withJsonTimes(withPageIds(threadId, whole), json).filter((m) => m.at !== null)
}

/** The thread page with its composer, or the outcome when it shows none. */
async function openThread(
  session: IgPageContext,
  page: Page,
  threadId: string,
): Promise<'composer' | SendResult> {
  const { selectors, texts } = session.facts
  await session.goto(page, session.path('thread', { id: threadId }))
  const refusal = regexOf(texts.leadRefusal)
  const thread = {
    composer: { selector: selectors.composer },
    refused: { text: refusal, within: selectors.threadMain },
  }
  const ready = await waitForFirst(
    page,
    { ...thread, signedIn: { selector: selectors.signedIn } },
    session.timeouts.navigationMs,
  )
  session.assertSignedIn(page)
  if (!ready) return { status: 'failed', threadId, reason: 'The Instagram thread did not show a composer.' }
  // the signed-in page rendered: its composer (or a notice) may follow a moment later, else the page changed
  const shown = ready === 'signedIn' ? await waitForFirst(page, thread, 2_500) : ready
  if (!shown) throw await layoutChanged(page, 'instagram', 'send', 'open thread: composer')
  if (shown === 'composer') return 'composer'
  // the lead takes no messages from us: a fact about the lead, not the account or the site
  const notice =
    (await textOf(page, selectors.threadMain))
      .split('\n')
      .find((line) => refusal.test(line))
      ?.trim() ?? 'This account does not accept messages.'
  return {
    status: 'failed',
    threadId,
    reason: notice,
    signal: stopSignal('instagram', 'cannot_message', 'cannot_receive', notice),
  }
}
