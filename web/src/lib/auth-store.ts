// product.md §4 "Auth": loading until the first lookup finishes, then a user or none; every auth
// change (initial session, sign-in/out, refresh, user update, recovery, MFA) updates it.
// The Supabase client is loaded on demand, so a signed-out visitor's landing page ships without it.
import type { SupabaseClient, User } from '@supabase/supabase-js'
import { mayHaveSession, useAuth } from './auth-state'

export { authStorageKey, mayHaveSession, useAuth } from './auth-state'

const loadClient = (): Promise<SupabaseClient> => import('./supabase').then((m) => m.supabase)

let pendingOAuthError: string | null = null

/** The description of a failed OAuth return in the address (query or fragment), if any. */
export function oauthErrorIn(location: Pick<Location, 'search' | 'hash'>): string | null {
  const fromQuery = new URLSearchParams(location.search).get('error_description')
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('error_description')
  return fromQuery ?? fromHash ?? null
}

/**
 * Why the last Google sign-in came back without a session: the provider returns to /dashboard
 * with error_description, the guard then sends the visitor to /login, which shows it until the
 * visitor acts (a pure read, so React's double render in development shows it too).
 */
export const pendingOAuthSignInError = (): string | null => pendingOAuthError

export function dismissOAuthSignInError(): void {
  pendingOAuthError = null
}

/**
 * At start-up: load the client when a session may exist; otherwise the visitor is signed out
 * right away and the client loads with the first page that needs it (login, guarded pages).
 */
export function startAuth(storageKey: string): void {
  pendingOAuthError = oauthErrorIn(window.location)
  if (mayHaveSession(storageKey, window.location)) void loadClient()
  else useAuth.setState({ user: null, session: null, loading: false })
}

/** Ends the session; the state is cleared even if the server call fails (that is logged). */
export async function signOut(): Promise<void> {
  const { error } = await (await loadClient()).auth.signOut()
  if (error) console.error('Error signing out', error)
  useAuth.setState({ user: null, session: null })
}

/** The name to greet a user with: user_metadata.full_name, else the e-mail. */
export function displayName(user: User | null): string {
  const fullName = user?.user_metadata?.full_name
  return typeof fullName === 'string' && fullName.trim() !== '' ? fullName.trim() : (user?.email ?? '')
}
