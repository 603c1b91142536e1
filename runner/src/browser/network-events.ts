// Network events only where they are used. Puppeteer over WebDriver BiDi subscribes every context
// of the browser to the network module by default: each request of every account's page (x.com
// loads dozens per page) becomes three BiDi events, serialised by the mapper, parsed again and
// turned into puppeteer request objects, though nothing but a scrape's listing capture reads them.
// The pool launches its browsers with that subscription off; a page whose requests are needed
// subscribes its own browsing context here, and the subscription ends with the page.
import type { Page } from 'puppeteer-core'

/** The BiDi browsing context behind a puppeteer page (absent when puppeteer speaks CDP). */
interface BidiContext {
  subscribe(events: string[]): Promise<void>
}

/** Delivers the page's network events (request, response, finished, failed) from now on. */
export async function watchNetwork(page: Page): Promise<void> {
  const context = (page.mainFrame() as unknown as { browsingContext?: Partial<BidiContext> }).browsingContext
  if (typeof context?.subscribe !== 'function') return // CDP: puppeteer tracks the network itself
  await context.subscribe(['network'])
}
