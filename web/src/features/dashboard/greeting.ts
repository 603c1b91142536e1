import type { User } from '@supabase/supabase-js'

type VisitStorage = Pick<Storage, 'getItem' | 'setItem'>

const visitedKey = (userId: string) => `reachflow:dashboard-visited:${userId}`

/** The first word of the user's full name, or null when none was given (never the e-mail). */
export function firstName(user: User | null): string | null {
  const fullName = user?.user_metadata?.full_name
  if (typeof fullName !== 'string') return null
  const first = fullName.trim().split(/\s+/)[0]
  return first ? first : null
}

/**
 * Whether this user has opened the dashboard before on this browser; records the visit. Call it
 * once per mount, so the flag it sets does not turn "Welcome" into "Welcome back" on re-render.
 */
export function markDashboardVisit(userId: string | undefined, storage: VisitStorage | null): boolean {
  if (!userId || !storage) return false
  try {
    if (storage.getItem(visitedKey(userId)) !== null) return true
    storage.setItem(visitedKey(userId), new Date().toISOString())
  } catch {
    // Storage can be disabled (private mode); treat the visit as a first one.
  }
  return false
}

/** "Welcome" on a first visit, "Welcome back" afterwards, with the first name when it is known. */
export function dashboardGreeting(user: User | null, returning: boolean): string {
  const name = firstName(user)
  const base = returning ? 'Welcome back' : 'Welcome'
  return name ? `${base}, ${name}` : base
}
