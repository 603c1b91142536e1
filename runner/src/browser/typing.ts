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

/** The pause before each key, in ms (before scaling). */
export function keyDelay(char: string, random: () => number): number {
  let delay = 40 + random() * 90
  if (char === ' ') delay += 60 + random() * 160
  if (random() < 0.03) delay += 300 + random() * 600
  return delay
}

/** Types into a focused field key by key; a newline is Shift+Enter (Enter alone would send). */
export async function typeLikeHuman(
  page: Page,
  element: ElementHandle,
  text: string,
  options: TypingOptions,
): Promise<void> {
  const random = options.random ?? Math.random
  await element.focus()
  if (options.delayFactor <= 0) {
    // no pacing wanted: one key sequence per line is the same events, far fewer round trips
    const lines = text.split('\n')
    for (const [i, line] of lines.entries()) {
      if (i > 0) await shiftEnter(page)
      if (line) await page.keyboard.type(line)
    }
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
