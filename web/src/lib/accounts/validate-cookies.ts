import { ApiError, callApi } from '@/lib/api-client'
import { readCookieInput } from './cookie-input'

export const VALIDATION_FAILED = 'Validation failed'

/**
 * What the Validate button can say. X answers 404 to cookie sessions on the call that used to name
 * the account, so a check over HTTP knows only that X did not reject the cookies; whether they sign
 * in is the runner's test when the account is added. So the good outcome is "not rejected", shown
 * as information, never as a success.
 */
export type CookieCheck = { ok: 'not_rejected'; message: string } | { ok: false; message: string }

/**
 * POST {api}/social-accounts/validate-cookies (product.md §7): the cookies must be in a format the parser
 * takes ('Invalid cookie format or validation failed: …' says why not), then X is asked what a plain
 * request shows.
 */
export async function validateCookies(platform: string, cookiesText: string): Promise<CookieCheck> {
  const input = readCookieInput(cookiesText)
  if (!input.ok) return { ok: false, message: input.message }
  const cookies = input.body
  try {
    const result = await callApi('POST /social-accounts/validate-cookies', {
      body: { platform, cookies },
    })
    return { ok: 'not_rejected', message: result.message }
  } catch (error) {
    const detail = error instanceof ApiError ? error.serverText : null
    return { ok: false, message: detail ? `${VALIDATION_FAILED}: ${detail}` : VALIDATION_FAILED }
  }
}
