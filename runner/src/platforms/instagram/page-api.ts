/// <reference lib="dom" />
// Calls Instagram's web API from inside the signed-in page, as instagram.com does: same cookies
// and proxy, with the app id and the CSRF token read from its cookie (names from the facts).
import { isPlatformPath } from '@reachflow/domain'
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
  // the call carries the session's cookies and CSRF token: never to another site, whatever the pack says
  if (!isPlatformPath(path))
    throw new Error(`Refused a web API call off Instagram's site: ${JSON.stringify(path)}`)
  const { api, cookies } = facts
  return page.evaluate(
    async (path, form, names, values, timeoutMs) => {
      const csrf =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith(`${names.csrfCookie}=`))
          ?.slice(names.csrfCookie.length + 1) ?? ''
      const headers: Record<string, string> = {
        [names.appId]: values.appId,
        [names.csrf]: csrf,
        [names.requestedWith]: values.requestedWith,
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
    { ...api.headers, csrfCookie: cookies.csrf },
    { appId: facts.appId, requestedWith: api.requestedWith },
    timeoutMs,
  )
}
