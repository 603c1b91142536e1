import { supabase } from '@/lib/supabase'

/** How the person reached the invitation signed in by Auth on the way, if they did. */
export type Arrival = 'invite-mail' | 'signed-in' | 'none'

/**
 * Auth signs the person in on their way to /invite/<token>, and the app's client leaves this page's
 * address alone (lib/supabase.ts), so the page takes the session itself and clears the address:
 * - Auth's invite mail (a new address) and the magic link mailed to someone who already has a login
 *   carry an implicit session in the fragment (#access_token=…&type=invite|magiclink);
 * - Google, started from this page by the app's PKCE client, comes back with `?code=`.
 * 'invite-mail' means the person has no password yet.
 */
export async function takeSessionFromUrl(): Promise<Arrival> {
  const url = new URL(window.location.href)
  const code = url.searchParams.get('code')
  if (code) {
    url.searchParams.delete('code')
    window.history.replaceState(null, '', `${url.pathname}${url.search}`)
    const { error } = await supabase.auth.exchangeCodeForSession(code)
    if (error) throw new Error(error.message)
    return 'signed-in'
  }
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ''))
  const type = fragment.get('type')
  const accessToken = fragment.get('access_token')
  const refreshToken = fragment.get('refresh_token')
  if ((type !== 'invite' && type !== 'magiclink') || !accessToken || !refreshToken) return 'none'
  window.history.replaceState(null, '', `${url.pathname}${url.search}`)
  const { error } = await supabase.auth.setSession({ access_token: accessToken, refresh_token: refreshToken })
  if (error) throw new Error(error.message)
  return type === 'invite' ? 'invite-mail' : 'signed-in'
}

/** The first password of someone who joined from an invitation mail. */
export async function setFirstPassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password })
  if (error) throw new Error(error.message)
}
