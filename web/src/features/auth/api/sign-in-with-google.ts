import { paths } from '@/config/paths'
import type { AuthResult } from './login-schema'
import { sameOriginPath } from './return-path'

export interface GoogleReturn {
  /** /login?checkout=true: back to the root with checkout=continue. */
  checkoutFlow: boolean
  /** A page of this site to come back to instead (an invitation); ignored unless same-origin. */
  returnTo?: string
}

/**
 * Where Google sends the user back (product.md §2): /dashboard, the root with checkout=continue when
 * the sign-in started from a checkout flow, or the page the sign-in started from (an invitation).
 */
export function googleRedirectTarget(origin: string, { checkoutFlow, returnTo }: GoogleReturn): string {
  if (checkoutFlow) return `${origin}${paths.home}?checkout=continue`
  return `${origin}${sameOriginPath(returnTo, origin) ?? paths.dashboard}`
}

/** Starts Google sign-in; on success the browser leaves for Google, so only failures come back. */
export async function signInWithGoogle(back: GoogleReturn): Promise<AuthResult> {
  try {
    const { supabase } = await import('@/lib/supabase')
    const { error } = await supabase.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: googleRedirectTarget(window.location.origin, back) },
    })
    if (error) return { ok: false, error: `Google sign in error: ${error.message}` }
    return { ok: true }
  } catch (error) {
    console.error('Google sign in failed', error)
    return { ok: false, error: 'Google sign in failed. Please try again.' }
  }
}
