import { ApiError, callApi } from '@/lib/api-client'
import { readCookieInput } from './cookie-input'

export const COOKIES_VALID = 'Cookies valid!'
export const VALIDATION_FAILED = 'Validation failed'

export type CookieCheck = { ok: true; message: string; username?: string } | { ok: false; message: string }

/**
 * POST {api}/social-accounts/validate-cookies (spec §7): the cookies must be in a format the parser
 * takes ('Invalid cookie format or validation failed: …' says why not), then X itself is asked
 * whether they make a session.
 */
export async function validateCookies(platform: string, cookiesText: string): Promise<CookieCheck> {
  const input = readCookieInput(cookiesText)
  if (!input.ok) return { ok: false, message: input.message }
  const cookies = input.body
  try {
    const result = await callApi<{
      valid: boolean
      message?: string
      user?: { screen_name?: string; username?: string }
    }>('social-accounts/validate-cookies', { method: 'POST', body: { platform, cookies } })
    return {
      ok: true,
      message: result.message ?? COOKIES_VALID,
      username: result.user?.screen_name ?? result.user?.username,
    }
  } catch (error) {
    const detail = error instanceof ApiError ? error.serverText : null
    return { ok: false, message: detail ? `${VALIDATION_FAILED}: ${detail}` : VALIDATION_FAILED }
  }
}
