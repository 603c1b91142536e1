import type { AuthError, User } from '@supabase/supabase-js'
import { isOperator } from '@/lib/operator'
import {
  type AuthResult,
  type LoginInput,
  MISSING_CREDENTIALS,
  readLoginInput,
  UNEXPECTED_ERROR,
} from './login-schema'

/** product.md §8: the service's message, else a fixed text; a response without a user is an error too. */
export function signInOutcome(response: {
  data: { user: User | null }
  error: AuthError | null
}): AuthResult {
  if (response.error)
    return { ok: false, error: response.error.message || 'Login failed. Please check your credentials.' }
  if (!response.data.user)
    return { ok: false, error: 'User information missing. Please try signing in again.' }
  return { ok: true, home: isOperator(response.data.user) ? 'admin' : 'dashboard' }
}

/** E-mail and password sign-in. */
export async function signInWithEmail(input: LoginInput): Promise<AuthResult> {
  const credentials = readLoginInput(input)
  if (!credentials) return { ok: false, error: MISSING_CREDENTIALS }
  try {
    // Loaded on first use: the login page paints and responds before the client arrives.
    const { supabase } = await import('@/lib/supabase')
    return signInOutcome(await supabase.auth.signInWithPassword(credentials))
  } catch (error) {
    console.error('Sign in failed', error)
    return { ok: false, error: UNEXPECTED_ERROR }
  }
}
