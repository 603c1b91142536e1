import { supabase } from '@/lib/supabase'
import { type AuthResult, type LoginInput, loginSchema, UNEXPECTED_ERROR } from './login-schema'

/** E-mail and password sign-in with the error texts of spec §8. */
export async function signInWithEmail(input: LoginInput, client = supabase): Promise<AuthResult> {
  const credentials = loginSchema.parse(input)
  try {
    const { data, error } = await client.auth.signInWithPassword(credentials)
    if (error) return { ok: false, error: error.message || 'Login failed. Please check your credentials.' }
    if (!data.user) return { ok: false, error: 'User information missing. Please try signing in again.' }
    return { ok: true }
  } catch (error) {
    console.error('Sign in failed', error)
    return { ok: false, error: UNEXPECTED_ERROR }
  }
}
