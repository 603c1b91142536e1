// Waiting on pages that navigate on their own (client-side redirects, SPA routing): poll from
// Node for the first of several outcomes (a selector present, a URL matched, a text shown), so a
// navigation mid-wait never breaks the wait the way an in-page waitForFunction would.
import type { Page } from 'puppeteer-core'

export type Outcome =
  | { selector: string; visible?: boolean }
  | { url: (url: URL) => boolean }
  | { text: RegExp; within?: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Which outcome happened first (its key), or undefined when none did before the timeout. */
export async function waitForFirst<K extends string>(
  page: Page,
  outcomes: Record<K, Outcome>,
  timeoutMs: number,
  intervalMs = 150,
): Promise<K | undefined> {
  const deadline = Date.now() + timeoutMs
  const entries = Object.entries(outcomes) as [K, Outcome][]
  do {
    for (const [key, outcome] of entries) {
      if (await matches(page, outcome)) return key
    }
    await sleep(intervalMs)
  } while (Date.now() < deadline)
  return undefined
}

async function matches(page: Page, outcome: Outcome): Promise<boolean> {
  try {
    if ('url' in outcome) return outcome.url(new URL(page.url()))
    if ('selector' in outcome) {
      const handle = await page.$(outcome.selector)
      if (!handle) return false
      const ok = outcome.visible ? await handle.isVisible() : true
      await handle.dispose()
      return ok
    }
    const text = await textOf(page, outcome.within ?? 'body')
    return outcome.text.test(text)
  } catch {
    return false // the page navigated while we looked; the next round sees the new one
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
