import type { AuthError, User } from '@supabase/supabase-js'
import {
  type AuthResult,
  type LoginInput,
  MISSING_CREDENTIALS,
  readLoginInput,
  UNEXPECTED_ERROR,
} from './login-schema'

/** product.md §8: the service's message, else a fixed text; a response without a user is an error too. */
export function signUpOutcome(response: {
  data: { user: User | null }
  error: AuthError | null
}): AuthResult {
  if (response.error)
    return { ok: false, error: response.error.message || 'Sign up failed. Please try again.' }
  if (!response.data.user) return { ok: false, error: 'Account creation failed. Please try again.' }
  return { ok: true }
}

/** E-mail and password sign-up. */
export async function signUpWithEmail(input: LoginInput): Promise<AuthResult> {
  const credentials = readLoginInput(input)
  if (!credentials) return { ok: false, error: MISSING_CREDENTIALS }
  try {
    // Loaded on first use: the login page paints and responds before the client arrives.
    const { supabase } = await import('@/lib/supabase')
    return signUpOutcome(await supabase.auth.signUp(credentials))
  } catch (error) {
    console.error('Sign up failed', error)
    return { ok: false, error: UNEXPECTED_ERROR }
  }
}
