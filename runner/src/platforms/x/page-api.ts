/// <reference lib="dom" />
// Calls X's internal API from inside the signed-in page, as the web app does: same cookies, same
// proxy and browser fingerprint, with the bearer and the x-csrf-token read from the ct0 cookie.
import type { Page } from 'puppeteer-core'
import { xApiHeaders } from './selectors.ts'

export interface PageApiAnswer {
  status: number
  body: unknown
  rateLimit: { limit: number; remaining: number; reset: number } | null
}

export async function fetchInPage(page: Page, path: string, timeoutMs = 20_000): Promise<PageApiAnswer> {
  const headers = xApiHeaders('')
  return page.evaluate(
    async (path, headers, timeoutMs) => {
      const ct0 = /(?:^|; )ct0=([^;]*)/.exec(document.cookie)?.[1] ?? ''
      const response = await fetch(path, {
        headers: { ...headers, 'x-csrf-token': ct0 },
        credentials: 'include',
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await response.text()
      let body: unknown = null
      try {
        body = JSON.parse(text)
      } catch {
        body = { text: text.slice(0, 500) }
      }
      const limit = response.headers.get('x-rate-limit-limit')
      return {
        status: response.status,
        body,
        rateLimit:
          limit === null
            ? null
            : {
                limit: Number(limit),
                remaining: Number(response.headers.get('x-rate-limit-remaining')),
                reset: Number(response.headers.get('x-rate-limit-reset')),
              },
      }
    },
    path,
    headers,
    timeoutMs,
  )
}
