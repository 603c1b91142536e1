/// <reference lib="dom" />
// Waiting on pages that navigate on their own (client-side redirects, SPA routing): poll from
// Node for the first of several outcomes (a selector present, a URL matched, a text shown), so a
// navigation mid-wait never breaks the wait the way an in-page waitForFunction would.
import type { Page } from 'puppeteer-core'

export type Outcome =
  | { selector: string; visible?: boolean }
  | { url: (url: URL) => boolean }
  | { text: RegExp; within?: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type DomCheck =
  | { selector: string; visible: boolean }
  | { pattern: string; flags: string; within: string }
  | null

/**
 * Which outcome happened first (its key), or undefined when none did before the timeout. All
 * DOM checks of one round run in a single in-page call: with many sessions per runner the
 * number of protocol round trips is what costs.
 */
export async function waitForFirst<K extends string>(
  page: Page,
  outcomes: Record<K, Outcome>,
  timeoutMs: number,
  intervalMs = 150,
): Promise<K | undefined> {
  const deadline = Date.now() + timeoutMs
  const entries = Object.entries(outcomes) as [K, Outcome][]
  const checks: DomCheck[] = entries.map(([, o]) =>
    'url' in o
      ? null
      : 'selector' in o
        ? { selector: o.selector, visible: o.visible ?? false }
        : { pattern: o.text.source, flags: o.text.flags, within: o.within ?? 'body' },
  )
  do {
    const url = safeUrl(page)
    const dom = await domMatches(page, checks)
    for (const [i, [key, outcome]] of entries.entries()) {
      if ('url' in outcome ? url !== undefined && outcome.url(url) : dom?.[i] === true) return key
    }
    await sleep(intervalMs)
  } while (Date.now() < deadline)
  return undefined
}

function safeUrl(page: Page): URL | undefined {
  try {
    return new URL(page.url())
  } catch {
    return undefined
  }
}

/** One in-page call answering every DOM check (undefined while the page is between documents). */
async function domMatches(page: Page, checks: DomCheck[]): Promise<boolean[] | undefined> {
  if (checks.every((c) => c === null)) return []
  let clear = () => {}
  const timeout = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 2_000)
    clear = () => clearTimeout(timer)
  })
  const look = page
    .evaluate(
      (checks) =>
        checks.map((check) => {
          if (!check) return false
          if ('selector' in check) {
            const el = document.querySelector(check.selector)
            if (!el) return false
            return (
              !check.visible ||
              (el as Element & { checkVisibility?: () => boolean }).checkVisibility?.() !== false
            )
          }
          const text = Array.from(document.querySelectorAll(check.within))
            .map((el) => (el as HTMLElement).innerText ?? '')
            .join('\n')
          return new RegExp(check.pattern, check.flags).test(text)
        }),
      checks,
    )
    .catch(() => undefined) // the page navigated while we looked; the next round sees the new one
  try {
    return await Promise.race([look, timeout])
  } finally {
    clear()
  }
}

/** The visible text of the first element matching the selector ('' if none). */
export async function textOf(page: Page, selector: string): Promise<string> {
  return page
    .$$eval(selector, (els) =>
      els.map((el) => (el as unknown as { innerText?: string }).innerText ?? '').join('\n'),
    )
    .catch(() => '')
}

/** Whether the URL's path is one of the prefixes or below it. */
export function pathStartsWith(prefixes: readonly string[]): (url: URL) => boolean {
  return (url) =>
    prefixes.some((p) => url.pathname === p || url.pathname.startsWith(p.endsWith('/') ? p : `${p}/`))
}

/** Clicks the first element matching the selector whose visible text is one of the texts. */
export async function clickByText(page: Page, selector: string, texts: readonly string[]): Promise<boolean> {
  for (const handle of await page.$$(selector)) {
    const text = await handle.evaluate(
      (el) => (el as unknown as { innerText?: string }).innerText?.trim() ?? '',
    )
    if (texts.includes(text) && (await handle.isVisible())) {
      await handle.click()
      return true
    }
  }
  return false
}
