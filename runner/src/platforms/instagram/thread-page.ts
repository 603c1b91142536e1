/// <reference lib="dom" />
// Reading an Instagram thread from the page as the 2026 web draws it: the messages of
// [data-pagelet="IGDMessagesList"] in the order they are shown (the list is column-reverse, so the
// DOM order is not the reading order: sort by position on screen), one's own told apart by a
// flex-end layout, no ids or times. Only the newest messages are in the page (the list is
// virtualised), which is all a send needs: our new message appears at the bottom.
import type { Page } from 'puppeteer-core'
import { deepEval } from '../../browser/deep-query.ts'

export interface PageMessage {
  text: string
  outgoing: boolean
}

/** The thread's rendered messages, oldest first; null when the page has no message list. */
export async function readThreadPage(
  page: Page,
  selectors: { messageList: string; messageText: string },
): Promise<PageMessage[] | null> {
  return deepEval(
    page,
    selectors.messageList,
    (lists, textSelector) => {
      const list = lists[0]
      if (!list) return null
      // a text inside another one (a quoted reply) belongs to the outer message
      const texts = Array.from(list.querySelectorAll(textSelector)).filter((el) => {
        const outer = el.parentElement?.closest(textSelector)
        return !outer || !list.contains(outer)
      })
      return texts
        .map((el) => {
          // no named helper in here: the function is sent to the page as source, and a bundler's
          // name-keeping wrapper would not exist there
          let outgoing = false
          for (let node: Element | null = el; node && node !== list; node = node.parentElement) {
            const style = getComputedStyle(node)
            if ([style.justifyContent, style.alignSelf, style.alignItems].includes('flex-end'))
              outgoing = true
          }
          return {
            text: ((el as HTMLElement).innerText ?? '').replace(/\n$/, ''),
            outgoing,
            top: el.getBoundingClientRect().top,
          }
        })
        .sort((a, b) => a.top - b.top)
        .map(({ text, outgoing }) => ({ text, outgoing }))
    },
    selectors.messageText,
  )
}

/** The composer's text as typed (contenteditable: its innerText, without the trailing line break). */
export async function composerText(page: Page, composer: string): Promise<string> {
  const text = await deepEval(
    page,
    composer,
    (elements) => (elements[0] as HTMLElement | undefined)?.innerText ?? '',
    null,
  ).catch(() => '')
  return text.replace(/\n$/, '')
}

const same = (a: PageMessage | undefined, b: PageMessage | undefined) =>
  a !== undefined && b !== undefined && a.text === b.text && a.outgoing === b.outgoing

/**
 * Our messages holding exactly `text` that appeared below what the thread showed before the send.
 * The list shows the newest messages only, so after the send it is what was shown before, less
 * some at the top, plus what came since: the longest tail of `before` that starts the list again
 * marks where the new messages begin (the longest, so a new message with the same words as the
 * last old one is not taken for it). When none does, our messages with the text are counted.
 */
export function newOwnMessages(before: PageMessage[], after: PageMessage[], text: string): number {
  const mine = (list: PageMessage[]) => list.filter((m) => m.outgoing && m.text === text).length
  for (let dropped = 0; dropped < before.length; dropped++) {
    const kept = before.slice(dropped)
    if (kept.length <= after.length && kept.every((m, i) => same(m, after[i])))
      return mine(after.slice(kept.length))
  }
  return Math.max(0, mine(after) - mine(before))
}
