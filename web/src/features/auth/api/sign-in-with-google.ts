import { paths } from '@/config/paths'
import type { AuthResult } from './login-schema'

/**
 * Where Google sends the user back (product.md §2): /dashboard, or the root with checkout=continue when
 * the sign-in started from a checkout flow.
 */
export function googleRedirectTarget(origin: string, checkoutFlow: boolean): string {
  return checkoutFlow ? `${origin}${paths.home}?checkout=continue` : `${origin}${paths.dashboard}`
}

/** Starts Google sign-in; on success the browser leaves for Google, so only failures come back. */
export async function signInWithGoogle(checkoutFlow: boolean): Promise<AuthResult> {
  try {
    const { supabase } = await import('@/lib/supabase')
    const { error } = await supabase.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: googleRedirectTarget(window.location.origin, checkoutFlow) },
    })
    if (error) return { ok: false, error: `Google sign in error: ${error.message}` }
    return { ok: true }
  } catch (error) {
    console.error('Google sign in failed', error)
    return { ok: false, error: 'Google sign in failed. Please try again.' }
  }
}
