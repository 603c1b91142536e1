/// <reference lib="dom" />
// Calls Instagram's web API from inside the signed-in page, as instagram.com does: same cookies
// and proxy, with x-ig-app-id and X-CSRFToken read from the csrftoken cookie.
import type { Page } from 'puppeteer-core'
import type { InstagramFacts } from './facts.ts'

export interface IgAnswer {
  status: number
  body: unknown
}

export async function igFetchInPage(
  facts: InstagramFacts,
  page: Page,
  path: string,
  form?: Record<string, string>,
  timeoutMs = 20_000,
): Promise<IgAnswer> {
  return page.evaluate(
    async (path, form, appId, timeoutMs) => {
      const csrf = /(?:^|; )csrftoken=([^;]*)/.exec(document.cookie)?.[1] ?? ''
      const headers: Record<string, string> = {
        'x-ig-app-id': appId,
        'x-csrftoken': csrf,
        'x-requested-with': 'XMLHttpRequest',
      }
      if (form) headers['content-type'] = 'application/x-www-form-urlencoded'
      const response = await fetch(path, {
        method: form ? 'POST' : 'GET',
        headers,
        credentials: 'include',
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await response.text()
      try {
        return { status: response.status, body: JSON.parse(text) as unknown }
      } catch {
        return { status: response.status, body: { message: text.slice(0, 300) } }
      }
    },
    path,
    form ?? null,
    facts.appId,
    timeoutMs,
  )
}
