// product.md §4 "Route guard", as pure decisions so they can be tested without a browser.
import type { UserProfile } from '@/lib/user-profile'

export type GuardView = 'loading' | 'login' | 'onboarding' | 'page-with-setup' | 'page'

export interface GuardInput {
  authLoading: boolean
  signedIn: boolean
  profileLoading: boolean
  profile: Pick<UserProfile, 'onboarding_completed' | 'post_onboarding'> | null
}

export function guardView({ authLoading, signedIn, profileLoading, profile }: GuardInput): GuardView {
  if (authLoading) return 'loading'
  if (!signedIn) return 'login'
  if (profileLoading) return 'loading'
  // Only an explicit false counts: a missing profile or a null flag never traps a user in a flow.
  if (profile?.onboarding_completed === false) return 'onboarding'
  if (profile?.post_onboarding === false) return 'page-with-setup'
  return 'page'
}

/**
 * The setup modal connects the workspace's first account: only a role that may connect one sees it,
 * and only once the role is known (an invited agent or viewer would otherwise be asked to connect).
 */
export function showsSetup(view: GuardView, role: { loading: boolean; editWorkspace: boolean }): boolean {
  return view === 'page-with-setup' && !role.loading && role.editWorkspace
}

export const PAYMENT_SUCCESS_WAIT_MS = 1000

/**
 * The address without `payment=success`, or null when it is not there. The guard puts this in the
 * address bar and then waits before reading the profile, giving the payment webhook time to land.
 */
export function withoutPaymentSuccess(href: string): string | null {
  const url = new URL(href)
  if (url.searchParams.get('payment') !== 'success') return null
  url.searchParams.delete('payment')
  return `${url.pathname}${url.search}${url.hash}`
}
