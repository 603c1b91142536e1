/// <reference lib="dom" />
// Scraping leads the way a person browses: open the followers/following page of a user, or the search
// page (hashtag → Latest posts and their authors, keywords → People), and read the answers the page's
// own GraphQL calls receive. The next page is what the page loads when it is scrolled to the end; a
// stored cursor (a later run, or after a reload) is resumed by letting the page's first request ask
// from it. A repeated cursor or an empty page ends the listing. A page whose calls answer 404 (X
// released a new version under it) is reloaded once; its new bundle knows the new query ids.
import type { Page } from 'puppeteer-core'
import { waitForFirst } from '../../browser/page-wait.ts'
import { type ScrapePage, type ScrapeRequest, StopSignalError } from '../types.ts'
import type { ScrapeView, XPageContext } from './context.ts'
import { type CapturedAnswer, ListingCapture } from './listing-capture.ts'
import { xSignalFromResponse } from './signals.ts'
import { parseTimeline } from './timeline.ts'

interface Plan {
  key: string
  path: string
  /** Operations the page calls, the listing last. */
  operations: string[]
  username?: string
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Page loads one scrape may take (the first, and reloads after a stale release or a lost answer). */
const LOADS = 3

/** Whether an answer says something (X's listing, or an error X gave), not a lost or stale call. */
async function usable(answer: CapturedAnswer): Promise<boolean> {
  if (answer.status === 0 || answer.status === 404) return false
  return answer.status !== 200 || (await answer.body) !== ''
}

function planOf(session: XPageContext, request: ScrapeRequest): Plan {
  const { graphql } = session.facts
  const value = request.value.trim()
  if (request.source === 'followers' || request.source === 'following') {
    const username = value.replace(/^@/, '')
    return {
      key: `${request.source}:${username.toLowerCase()}`,
      path: session.path(request.source, { username }),
      operations: [graphql.operations.user, graphql.operations[request.source]],
      username,
    }
  }
  const query = request.source === 'hashtag' ? `#${value.replace(/^#/, '')}` : value
  return {
    key: `${request.source}:${query.toLowerCase()}`,
    path: session.path('search', { query, filter: graphql.searchFilter[request.source] }),
    operations: [graphql.operations.search],
  }
}

export async function scrapeX(session: XPageContext, request: ScrapeRequest): Promise<ScrapePage> {
  if (!request.value.trim()) throw new Error('Nothing to scrape: the source value is empty.')
  const plan = planOf(session, request)
  const cursor = request.cursor ?? null
  return session.run(`scrape ${request.source}`, session.timeouts.operationMs, async (page) => {
    const view = session.scrapeView
    let answer: CapturedAnswer | undefined
    if (
      view &&
      cursor !== null &&
      view.key === plan.key &&
      view.lastBottom === cursor &&
      new URL(page.url()).pathname === new URL(session.url(plan.path)).pathname
    ) {
      answer = await scrollFor(session, page, view, plan, cursor)
    }
    // a stale release (404), a call that failed or an answer whose body could not be read: load again
    for (let load = 0; load < LOADS && !(answer && (await usable(answer))); load++) {
      answer = await loadListing(session, page, plan, cursor)
    }
    if (!answer) throw new Error(`The ${plan.key} page did not load`)
    return pageOf(session, answer, cursor)
  })
}

/** The listing's next page after scrolling the open page to its end (undefined: reload instead). */
async function scrollFor(
  session: XPageContext,
  page: Page,
  view: ScrapeView,
  plan: Plan,
  cursor: string,
): Promise<CapturedAnswer | undefined> {
  const listing = plan.operations.at(-1) ?? ''
  const ready = view.capture.take(listing, cursor)
  if (ready) return ready
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  const deadline = Date.now() + session.timeouts.navigationMs
  while (Date.now() < deadline) {
    const answer = view.capture.take(listing, cursor)
    if (answer) return (await usable(answer)) ? answer : undefined
    await sleep(150)
  }
  return undefined
}

/** Opens the listing's page (resuming from the cursor) and waits for the page's first listing answer. */
async function loadListing(
  session: XPageContext,
  page: Page,
  plan: Plan,
  cursor: string | null,
): Promise<CapturedAnswer> {
  const listing = plan.operations.at(-1) ?? ''
  const user = plan.username ? plan.operations[0] : undefined
  const capture = await ListingCapture.on(page, session.facts, plan.operations)
  try {
    if (cursor !== null) await capture.resumeFrom(cursor)
    await session.goto(page, plan.path)
    session.assertSignedIn(page)
    const deadline = Date.now() + session.timeouts.navigationMs
    while (Date.now() < deadline) {
      const answer = capture.take(listing, cursor)
      if (answer) {
        session.scrapeView = { key: plan.key, capture, lastBottom: null }
        return answer
      }
      const lookup = user ? capture.take(user) : undefined
      if (lookup) {
        // the page asks who the user is before listing; no user (or an error) ends the wait
        const text = await lookup.body
        if (lookup.status !== 200 || !text) return lookup
        const body = JSON.parse(text) as { data?: { user?: { result?: unknown } } }
        if (!body.data?.user?.result) throw new Error(`X has no user @${plan.username}`)
      }
      await waitForFirst(
        page,
        { signedOut: { url: session.signedOut }, locked: { url: session.locked } },
        150,
      )
      session.assertSignedIn(page)
    }
    throw new Error(`The ${listing} page did not load its list in time`)
  } catch (error) {
    await capture.stop()
    throw error
  }
}

async function pageOf(
  session: XPageContext,
  answer: CapturedAnswer,
  cursor: string | null,
): Promise<ScrapePage> {
  const headers = session.facts.graphql.rateLimitHeaders
  const text = await answer.body
  let body: unknown = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = { text: text.slice(0, 500) }
  }
  const limit = answer.headers[headers.limit]
  const rateLimit =
    limit === undefined
      ? undefined
      : {
          limit: Number(limit),
          remaining: Number(answer.headers[headers.remaining]),
          resetAt: new Date(Number(answer.headers[headers.reset]) * 1000).toISOString(),
        }
  const signal = xSignalFromResponse(answer.status, body, rateLimit?.resetAt)
  if (signal) throw new StopSignalError(signal)
  // an answer that cannot be read is never an empty page: that would end the listing early
  if (answer.status === 200 && !text)
    throw new Error(`The answer to the page's own ${answer.operation} call could not be read`)
  if (answer.status !== 200)
    throw new Error(`X answered HTTP ${answer.status} to the page's own ${answer.operation} call`)
  const { profiles, bottomCursor } = parseTimeline(body)
  const nextCursor = profiles.length === 0 || !bottomCursor || bottomCursor === cursor ? null : bottomCursor
  const view = session.scrapeView
  if (view) view.lastBottom = nextCursor
  return { profiles, nextCursor, ...(rateLimit ? { rateLimit } : {}) }
}
