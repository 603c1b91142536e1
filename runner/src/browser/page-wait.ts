/// <reference lib="dom" />
// Waiting on pages that navigate on their own (client-side redirects, SPA routing): poll from
// Node for the first of several outcomes (a selector present, a URL matched, a text shown, a shadow
// host that finished rendering), so a navigation mid-wait never breaks the wait the way an in-page
// waitForFunction would. Every DOM check searches open shadow roots too (X Chat renders in one):
// `a >>> b` is puppeteer's deep-descendant combinator, and a plain selector also matches inside
// shadow roots, as puppeteer's `pierce/` does.
import type { Page } from 'puppeteer-core'
import { DEEP_QUERY_JS, deepElements, deepEval } from './deep-query.ts'

export type Outcome =
  | { selector: string; visible?: boolean }
  | { url: (url: URL) => boolean }
  | { text: RegExp; within?: string }
  /** The host (e.g. a shadow host) rendered something and shows no `loading` element any more. */
  | { settled: string; loading?: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type DomCheck =
  | { kind: 'selector'; selector: string; visible: boolean }
  | { kind: 'text'; pattern: string; flags: string; within: string }
  | { kind: 'settled'; host: string; loading: string | null }
  | null

/**
 * Which outcome happened first (its key; the earliest listed wins a tie), or undefined when none did
 * before the timeout. All DOM checks of one round run in a single in-page call: with many sessions
 * per runner the number of protocol round trips is what costs.
 */
export async function waitForFirst<K extends string>(
  page: Page,
  outcomes: Record<K, Outcome>,
  timeoutMs: number,
  intervalMs = 150,
): Promise<K | undefined> {
  const deadline = Date.now() + timeoutMs
  const entries = Object.entries(outcomes) as [K, Outcome][]
  const checks: DomCheck[] = entries.map(([, o]) => {
    if ('url' in o) return null
    if ('selector' in o) return { kind: 'selector', selector: o.selector, visible: o.visible ?? false }
    if ('settled' in o) return { kind: 'settled', host: o.settled, loading: o.loading ?? null }
    return { kind: 'text', pattern: o.text.source, flags: o.text.flags, within: o.within ?? 'body' }
  })
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

/** The in-page side of the DOM checks (source text, see deep-query.ts), one traversal per check. */
const DOM_CHECKS_JS = `function (checks) {
  ${DEEP_QUERY_JS}
  return checks.map(function (check) {
    if (!check) return false
    if (check.kind === 'selector') {
      var el = deepAll(check.selector)[0]
      if (!el) return false
      return !check.visible || !el.checkVisibility || el.checkVisibility() !== false
    }
    if (check.kind === 'settled') {
      var host = deepAll(check.host)[0]
      if (!host) return false
      var content = Array.from((host.shadowRoot || host).children).filter(function (c) {
        return ['STYLE', 'SCRIPT', 'TEMPLATE', 'LINK'].indexOf(c.tagName) < 0
      })
      if (content.length === 0) return false
      return !check.loading || deepAll(check.host + ' >>> ' + check.loading).length === 0
    }
    var text = deepAll(check.within).map(deepText).join('\\n')
    return new RegExp(check.pattern, check.flags).test(text)
  })
}`

/** One in-page call answering every DOM check (undefined while the page is between documents). */
async function domMatches(page: Page, checks: DomCheck[]): Promise<boolean[] | undefined> {
  if (checks.every((c) => c === null)) return []
  let clear = () => {}
  const timeout = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 2_000)
    clear = () => clearTimeout(timer)
  })
  const look = page
    .evaluate(`(${DOM_CHECKS_JS})(${JSON.stringify(checks)})`)
    .then((answer) => answer as boolean[])
    .catch(() => undefined) // the page navigated while we looked; the next round sees the new one
  try {
    return await Promise.race([look, timeout])
  } finally {
    clear()
  }
}

/** The visible text of every element matching the selector (shadow roots pierced), '' if none. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return deepEval(
    page,
    selector,
    (elements) => elements.map((el) => (el as HTMLElement).innerText ?? '').join('\n'),
    null,
  ).catch(() => '')
}

/** Whether the URL's path is one of the prefixes or below it. */
export function pathStartsWith(prefixes: readonly string[]): (url: URL) => boolean {
  return (url) =>
    prefixes.some((p) => url.pathname === p || url.pathname.startsWith(p.endsWith('/') ? p : `${p}/`))
}

/** Clicks the first element matching the selector whose visible text is one of the texts. */
export async function clickByText(page: Page, selector: string, texts: readonly string[]): Promise<boolean> {
  for (const handle of await deepElements(page, selector)) {
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
