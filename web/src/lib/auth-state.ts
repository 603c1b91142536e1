// The auth state every page reads (product.md §4 "Auth") and the listener that keeps it in step with
// a Supabase client from the moment the client exists (lib/supabase.ts attaches it).
import type { Session, SupabaseClient, User } from '@supabase/supabase-js'
import { create } from 'zustand'
import { env } from '@/config/env'

export interface AuthState {
  user: User | null
  session: Session | null
  loading: boolean
}

/**
 * A visitor with no stored session and no OAuth return in the address is signed out from the
 * first render. Decided when the store is made, because React reads the store's initial state
 * (zustand's server snapshot) both when the build prerenders a page, where there is no window
 * and the page is the signed-out one, and when the browser hydrates that page.
 */
function initiallyLoading(): boolean {
  if (typeof window === 'undefined') return false
  return mayHaveSession(authStorageKey(env.supabaseUrl), window.location)
}

export const useAuth = create<AuthState>()(() => ({
  user: null,
  session: null,
  loading: initiallyLoading(),
}))

/** supabase-js's default storage key: `sb-<first label of the API host>-auth-token`. */
export function authStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`
}

/**
 * Whether this page load can have a session: one is stored, or the address carries an OAuth or
 * recovery result. Without either the visitor is signed out and the client need not load yet.
 */
export function mayHaveSession(storageKey: string, location: Pick<Location, 'search' | 'hash'>): boolean {
  try {
    if (localStorage.getItem(storageKey)) return true
  } catch {
    return true
  }
  const query = new URLSearchParams(location.search)
  return (
    query.has('code') ||
    query.has('error_description') ||
    /access_token=|error_description=/.test(location.hash)
  )
}

/** The current user: none without a stored session; a failed lookup is logged and counts as none. */
async function lookUpUser(client: SupabaseClient): Promise<User | null> {
  try {
    const { data: stored } = await client.auth.getSession()
    if (!stored.session) return null
    const { data, error } = await client.auth.getUser()
    if (error) {
      console.error('Error getting current user', error)
      return null
    }
    return data.user
  } catch (error) {
    console.error('Error getting current user', error)
    return null
  }
}

const attached = new WeakSet<SupabaseClient>()

/** Follows a client's auth state; lib/supabase.ts calls this as soon as the client exists. */
export function attachAuthListener(client: SupabaseClient): () => void {
  if (attached.has(client)) return () => {}
  attached.add(client)
  let stopped = false
  const { data } = client.auth.onAuthStateChange((_event, session) => {
    // Only plain state updates here: supabase-js holds its lock while calling this listener.
    useAuth.setState({ session, user: session?.user ?? null })
  })
  void lookUpUser(client).then((user) => {
    if (!stopped) useAuth.setState({ user, loading: false })
  })
  return () => {
    stopped = true
    attached.delete(client)
    data.subscription.unsubscribe()
  }
}
