// When a saved X session may be restored without a full sign-in. A full sign-in loads X's home
// page and reads the account menu (about 1.35 CPU-s and a page load on a busy runner, most of a
// job's cost at real pacing, and the whole of a restarted runner's first minutes). A restore puts
// the saved cookies into a new context and takes the identity the last full sign-in saw; the job's
// own first page is the check, because X sends a signed-out or locked session from any page to its
// login or access page and the operations turn that into the same stop signals. It is allowed only:
// - when the saved session holds the pasted session (the same auth_token: had the customer pasted
//   new cookies, the save would be gone, and a saved session that expired has nothing to fall back to);
// - when its identity agrees with the session's twid cookie;
// - within a day of the last full sign-in, so every account still shows X's home page daily;
// - not for the customer's account test or the platform canary, which are the full check.
import type { SeenSignedIn } from '../platforms/types.ts'
import { type AccountSecrets, xCookiesFromCredentials, xCookiesFromSaved } from './credentials.ts'

/** How long after a full sign-in its saved session may be restored without one. */
export const RESTORE_WITHIN_MS = 24 * 60 * 60_000

/** What to restore the account's session from, or null when it must sign in in full. */
export function restorableSession(
  secrets: AccountSecrets,
  now: number,
  withinMs = RESTORE_WITHIN_MS,
): SeenSignedIn | null {
  const { credentials, saved } = secrets
  if (credentials.platform !== 'twitter' || credentials.connection === 'official') return null
  const seen = saved?.seen
  const cookies = xCookiesFromSaved(saved)
  if (!seen || !cookies) return null
  let pasted: ReturnType<typeof xCookiesFromCredentials>
  try {
    pasted = xCookiesFromCredentials(credentials)
  } catch {
    return null // unreadable pasted cookies: the full sign-in reports them
  }
  if (cookies.authToken !== pasted.authToken) return null
  if (cookies.userId && cookies.userId !== seen.identity.id) return null
  const age = now - seen.checkedAt
  return age >= 0 && age <= withinMs ? seen : null
}
