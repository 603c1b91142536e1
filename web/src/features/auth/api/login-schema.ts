// product.md §5: both fields required, one message for either missing; no other rule is imposed.
// Plain code rather than a schema library: the login page's first paint should not wait for one.

export const MISSING_CREDENTIALS = 'Please enter both email and password'

export interface LoginInput {
  email: string
  password: string
}

/** The credentials to send (e-mail trimmed), or null when either is missing. */
export function readLoginInput(input: LoginInput): LoginInput | null {
  const email = input.email.trim()
  if (email === '' || input.password === '') return null
  return { email, password: input.password }
}

/** `home` is where the user goes after signing in: operators to /admin, customers to /dashboard. */
export type AuthResult = { ok: true; home?: 'admin' | 'dashboard' } | { ok: false; error: string }

/**
 * The password rule of sign-up (supabase/config.toml minimum_password_length), said before the
 * request with the service's own words, so a short password is never a silent failure.
 */
export const MIN_PASSWORD_LENGTH = 6
export const PASSWORD_TOO_SHORT = `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`
export const PASSWORD_RULE = `At least ${MIN_PASSWORD_LENGTH} characters.`

export const UNEXPECTED_ERROR = 'An unexpected error occurred. Please try again.'
