// Human typing: 40–130 ms per key, longer on spaces, an occasional pause to "think".
// `delayFactor` scales every delay (1 = realistic, 0 = instant) so tests and benchmarks can
// compress it; the key events are the same either way.
import type { ElementHandle, Page } from 'puppeteer-core'

export interface TypingOptions {
  delayFactor: number
  random?: () => number
}

export const REALISTIC_TYPING: TypingOptions = { delayFactor: 1 }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** WebDriver BiDi's key values for Enter and Shift (input.performActions). */
const BIDI_ENTER = '\uE007'
const BIDI_SHIFT = '\uE008'

type KeyAction = { type: 'keyDown' | 'keyUp'; value: string } | { type: 'pause'; duration: number }

/** The BiDi browsing context behind a puppeteer page (absent when puppeteer speaks CDP). */
interface BidiActions {
  performActions(actions: { type: 'key'; id: string; actions: KeyAction[] }[]): Promise<void>
}

/** The pause before each key, in ms (before scaling). */
export function keyDelay(char: string, random: () => number): number {
  let delay = 40 + random() * 90
  if (char === ' ') delay += 60 + random() * 160
  if (random() < 0.03) delay += 300 + random() * 600
  return delay
}

/**
 * The key actions of typing `text` with human pauses: a pause, then key down and up, per
 * character; a newline is Shift+Enter (Enter alone would send).
 */
export function humanKeyActions(text: string, delayFactor: number, random: () => number): KeyAction[] {
  const actions: KeyAction[] = []
  for (const char of Array.from(text)) {
    const delay = Math.round(keyDelay(char, random) * delayFactor)
    if (delay >= 1) actions.push({ type: 'pause', duration: delay })
    if (char === '\n')
      actions.push(
        { type: 'keyDown', value: BIDI_SHIFT },
        { type: 'keyDown', value: BIDI_ENTER },
        { type: 'keyUp', value: BIDI_ENTER },
        { type: 'keyUp', value: BIDI_SHIFT },
      )
    else actions.push({ type: 'keyDown', value: char }, { type: 'keyUp', value: char })
  }
  return actions
}

function bidiActions(page: Page): BidiActions | undefined {
  const context = (page.mainFrame() as unknown as { browsingContext?: Partial<BidiActions> }).browsingContext
  return typeof context?.performActions === 'function' ? (context as BidiActions) : undefined
}

/** Types into a focused field key by key with human pauses. */
export async function typeLikeHuman(
  page: Page,
  element: ElementHandle,
  text: string,
  options: TypingOptions,
): Promise<void> {
  const random = options.random ?? Math.random
  await element.focus()
  const bidi = bidiActions(page)
  if (bidi) {
    // one input.performActions with the pauses inside: the browser side keeps the human rhythm,
    // and the runner pays one protocol round trip per message instead of one per key (with 50
    // accounts on one runner those round trips were what cost)
    await bidi.performActions([
      { type: 'key', id: 'reachflow-keyboard', actions: humanKeyActions(text, options.delayFactor, random) },
    ])
    return
  }
  for (const char of Array.from(text)) {
    const delay = keyDelay(char, random) * options.delayFactor
    if (delay >= 1) await sleep(delay)
    if (char === '\n') await shiftEnter(page)
    else await page.keyboard.type(char)
  }
}

async function shiftEnter(page: Page): Promise<void> {
  await page.keyboard.down('Shift')
  await page.keyboard.press('Enter')
  await page.keyboard.up('Shift')
}

/** Expected time to type a text, for sizing operation deadlines. */
export function typingBudgetMs(text: string, options: TypingOptions): number {
  return Math.ceil(text.length * 260 * options.delayFactor)
}
