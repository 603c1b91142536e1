// Scraping leads through X's internal GraphQL from the signed-in page: Followers / Following of
// a user, hashtag posts (SearchTimeline "#tag", Latest → authors) and keyword People search.
// 20 per page with the Bottom cursor; a repeated cursor or an empty page ends the listing.
import { type ScrapePage, type ScrapeRequest, StopSignalError } from '../types.ts'
import { fetchInPage } from './page-api.ts'
import { X_API, X_GRAPHQL_FEATURES, X_QUERY_IDS, X_SCRAPE_PAGE_SIZE } from './selectors.ts'
import type { XSession } from './session.ts'
import { xSignalFromResponse } from './signals.ts'
import { parseTimeline, parseXUser } from './timeline.ts'

const userIds = new WeakMap<XSession, Map<string, string>>()

export async function scrapeX(session: XSession, request: ScrapeRequest): Promise<ScrapePage> {
  const value = request.value.trim()
  if (!value) throw new Error('Nothing to scrape: the source value is empty.')
  return session.run(`scrape ${request.source}`, session.timeouts.operationMs, async (page) => {
    if (new URL(page.url()).origin !== new URL(session.baseUrl).origin) await session.goto(page, '/home')
    session.assertSignedIn(page)
    const call = async (operation: keyof typeof X_QUERY_IDS, variables: Record<string, unknown>) => {
      const query = new URLSearchParams({
        variables: JSON.stringify(variables),
        features: JSON.stringify(X_GRAPHQL_FEATURES),
      })
      const answer = await fetchInPage(page, `${X_API.graphql(X_QUERY_IDS[operation], operation)}?${query}`)
      const resetAt = answer.rateLimit ? new Date(answer.rateLimit.reset * 1000).toISOString() : undefined
      const signal = xSignalFromResponse(answer.status, answer.body, resetAt)
      if (signal) throw new StopSignalError(signal)
      if (answer.status !== 200) throw new Error(`X ${operation} answered HTTP ${answer.status}`)
      return answer
    }
    const cursor = request.cursor ?? undefined
    let variables: Record<string, unknown>
    let operation: 'Followers' | 'Following' | 'SearchTimeline'
    if (request.source === 'followers' || request.source === 'following') {
      const username = value.replace(/^@/, '')
      const known = userIds.get(session) ?? new Map<string, string>()
      userIds.set(session, known)
      let userId = known.get(username.toLowerCase())
      if (!userId) {
        const answer = await call('UserByScreenName', {
          screen_name: username,
          withSafetyModeUserFields: true,
        })
        const result = (answer.body as { data?: { user?: { result?: unknown } } }).data?.user?.result
        userId = result ? parseXUser(result)?.platformId : undefined
        if (!userId) throw new Error(`X has no user @${username}`)
        known.set(username.toLowerCase(), userId)
      }
      operation = request.source === 'followers' ? 'Followers' : 'Following'
      variables = {
        userId,
        count: X_SCRAPE_PAGE_SIZE,
        includePromotedContent: false,
        ...(cursor ? { cursor } : {}),
      }
    } else {
      const rawQuery = request.source === 'hashtag' ? `#${value.replace(/^#/, '')}` : value
      operation = 'SearchTimeline'
      variables = {
        rawQuery,
        count: X_SCRAPE_PAGE_SIZE,
        querySource: 'typed_query',
        product: request.source === 'hashtag' ? 'Latest' : 'People',
        ...(cursor ? { cursor } : {}),
      }
    }
    const answer = await call(operation, variables)
    const { profiles, bottomCursor } = parseTimeline(answer.body)
    return {
      profiles,
      nextCursor: profiles.length === 0 || !bottomCursor || bottomCursor === cursor ? null : bottomCursor,
      ...(answer.rateLimit
        ? {
            rateLimit: {
              limit: answer.rateLimit.limit,
              remaining: answer.rateLimit.remaining,
              resetAt: new Date(answer.rateLimit.reset * 1000).toISOString(),
            },
          }
        : {}),
    }
  })
}
