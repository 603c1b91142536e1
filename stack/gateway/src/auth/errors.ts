// Auth errors in GoTrue's two body formats: with `X-Supabase-Api-Version: 2024-01-01` the body is
// `{code: "<error_code>", message}`, without it the legacy `{code: <http status>, error_code, msg}`.
// auth-js reads the response header to pick the format, so the header is echoed on every answer.
import type { ServerResponse } from 'node:http'
import { sendJson } from '../http.ts'

export const API_VERSION = '2024-01-01'

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

export function sendAuthError(res: ServerResponse, error: AuthError, versioned: boolean): void {
  const body = versioned
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra }
  sendJson(res, error.status, body, { 'X-Supabase-Api-Version': API_VERSION })
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message)

export const invalidCredentials = () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials')

export const validationFailed = (message: string) => new AuthError(400, 'validation_failed', message)

export const notAdmin = () => new AuthError(403, 'not_admin', 'User not allowed')

export const userNotFound = () => new AuthError(404, 'user_not_found', 'User not found')

export const rateLimited = () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')

export function weakPassword(): AuthError {
  return new AuthError(422, 'weak_password', 'Password should be at least 6 characters.', {
    weak_password: { reasons: ['length'] },
  })
}
