// X cookies as the connect forms take them: every format the api function's parser accepts (an
// extension's JSON export, {"cookies": [...]}, a name → value object, the `auth_token=…; ct0=…`
// header, a cookies.txt), checked in the browser with that same parser so the form says what is
// wrong before anything is sent.
import { parseXCookies } from '@reachflow/domain'

/** product.md §5/§8 text; the parser's reason follows it. */
export const INVALID_COOKIES = 'Invalid cookie format or validation failed'

/** Under the cookies field of every connect form. */
export const COOKIES_HINT =
  'Paste the JSON export of a cookie editor extension, or the cookie header (auth_token=…; ct0=…), taken while signed in to x.com.'
export const COOKIES_PLACEHOLDER =
  '[{"name":"auth_token","value":"…"},{"name":"ct0","value":"…"}]  or  auth_token=…; ct0=…'

export type CookieInput = { ok: true; body: unknown } | { ok: false; message: string }

/**
 * The pasted cookies ready for the request body (parsed JSON when they are JSON, else the text,
 * which the function parses the same way), or what is wrong with them.
 */
export function readCookieInput(text: string, now: number = Date.now()): CookieInput {
  const trimmed = text.trim()
  const parsed = parseXCookies(trimmed, { now })
  if (!parsed.ok) return { ok: false, message: `${INVALID_COOKIES}: ${parsed.error}` }
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) return { ok: true, body: JSON.parse(trimmed) }
  return { ok: true, body: trimmed }
}
