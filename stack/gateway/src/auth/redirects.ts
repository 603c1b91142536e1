// Where auth may send a browser back to: the site URL and its paths, the instance's own web and API
// origins under 127.0.0.1 or localhost, and any extra URLs listed in AUTH_ADDITIONAL_REDIRECT_URLS.
// Anything else falls back to the site URL, as GoTrue does.
import type { StackConfig } from '../../../src/config.ts'

export function siteUrl(config: StackConfig): string {
  return process.env.SITE_URL || config.webUrl
}

function allowedOrigins(config: StackConfig): Set<string> {
  const origins = new Set<string>()
  for (const base of [siteUrl(config), config.webUrl, config.apiUrl]) {
    const url = new URL(base)
    origins.add(url.origin)
    for (const host of ['127.0.0.1', 'localhost']) {
      if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') {
        origins.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`)
      }
    }
  }
  return origins
}

function extraPrefixes(): string[] {
  return (process.env.AUTH_ADDITIONAL_REDIRECT_URLS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
}

export function isAllowedRedirect(config: StackConfig, target: string): boolean {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  if (url.username || url.password) return false
  if (allowedOrigins(config).has(url.origin)) return true
  return extraPrefixes().some((prefix) => target.startsWith(prefix))
}

/** The redirect target to use: the requested one when allowed, else the site URL. */
export function chooseRedirect(config: StackConfig, requested: string | null | undefined): string {
  return requested && isAllowedRedirect(config, requested) ? requested : siteUrl(config)
}

/** Appends values to a URL's fragment (implicit flow) or query (PKCE and errors). */
export function withParams(target: string, part: 'hash' | 'query', values: Record<string, string>): string {
  const url = new URL(target)
  if (part === 'query') {
    for (const [key, value] of Object.entries(values)) url.searchParams.set(key, value)
  } else {
    const hash = new URLSearchParams(url.hash.replace(/^#/, ''))
    for (const [key, value] of Object.entries(values)) hash.set(key, value)
    url.hash = hash.toString()
  }
  return url.toString()
}
