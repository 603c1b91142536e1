import { ApiError, callApi } from '@/lib/api-client'
import { INVALID_COOKIES, parseCookies } from './connect-account'

export const COOKIES_VALID = 'Cookies valid!'
export const VALIDATION_FAILED = 'Validation failed'

export type CookieCheck = { ok: true; message: string; username?: string } | { ok: false; message: string }

/**
 * POST {api}/social-accounts/validate-cookies (spec §7): the cookies must parse as JSON first
 * ('Invalid cookie format or validation failed'), then X itself is asked whether they make a session.
 */
export async function validateCookies(platform: string, cookiesText: string): Promise<CookieCheck> {
  const cookies = parseCookies(cookiesText.trim())
  if (cookies === undefined) return { ok: false, message: INVALID_COOKIES }
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
