import { supabase } from '@/lib/supabase'
import { type AuthResult, type LoginInput, loginSchema, UNEXPECTED_ERROR } from './login-schema'

/** E-mail and password sign-up with the error texts of spec §8. */
export async function signUpWithEmail(input: LoginInput, client = supabase): Promise<AuthResult> {
  const credentials = loginSchema.parse(input)
  try {
    const { data, error } = await client.auth.signUp(credentials)
    if (error) return { ok: false, error: error.message || 'Sign up failed. Please try again.' }
    if (!data.user) return { ok: false, error: 'Account creation failed. Please try again.' }
    return { ok: true }
  } catch (error) {
    console.error('Sign up failed', error)
    return { ok: false, error: UNEXPECTED_ERROR }
  }
}
