import { supabase } from '@/lib/supabase'

/**
 * An invitation mailed by Supabase Auth signs the person in on its way here, with the session in
 * the address's fragment (#access_token=…&type=invite). The app's client uses PKCE and leaves this
 * page's address alone (lib/supabase.ts), so the page takes the session itself and clears the
 * fragment. True when it did: the person arrived from the mail and has no password yet.
 */
export async function takeSessionFromInviteMail(): Promise<boolean> {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''))
  const accessToken = fragment.get('access_token')
  const refreshToken = fragment.get('refresh_token')
  if (fragment.get('type') !== 'invite' || !accessToken || !refreshToken) return false
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`)
  const { error } = await supabase.auth.setSession({ access_token: accessToken, refresh_token: refreshToken })
  if (error) throw new Error(error.message)
  return true
}

/** The first password of someone who joined from an invitation mail. */
export async function setFirstPassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password })
  if (error) throw new Error(error.message)
}
