import { useEffect, useState } from 'react'
import { rememberProfileIdentity } from '@/lib/profile-identity'
import { fetchUserProfile, type UserProfile } from '@/lib/user-profile'
import { PAYMENT_SUCCESS_WAIT_MS, withoutPaymentSuccess } from './guard-logic'

interface GuardProfile {
  loading: boolean
  profile: UserProfile | null
}

/**
 * Reads the signed-in user's profile for the guard. Coming back from checkout (payment=success),
 * the parameter leaves the address bar at once and the read waits 1 s. Only the address bar
 * changes (history.replaceState), so the page below can still read `payment` from the route.
 */
export function useGuardProfile(userId: string | undefined) {
  const [state, setState] = useState<GuardProfile>({ loading: true, profile: null })
  const [cameFromPayment] = useState(() => withoutPaymentSuccess(window.location.href) !== null)

  useEffect(() => {
    if (!userId) return
    let cancelled = false
    const stripped = withoutPaymentSuccess(window.location.href)
    if (stripped !== null) window.history.replaceState(window.history.state, '', stripped)
    setState({ loading: true, profile: null })
    const read = async () => {
      if (cameFromPayment) await new Promise((resolve) => setTimeout(resolve, PAYMENT_SUCCESS_WAIT_MS))
      const profile = await fetchUserProfile(userId)
      // the header's name and photo come from the same read
      rememberProfileIdentity(userId, profile)
      if (!cancelled) setState({ loading: false, profile })
    }
    void read()
    return () => {
      cancelled = true
    }
  }, [userId, cameFromPayment])

  const patchProfile = (patch: Partial<UserProfile>) =>
    setState((current) => ({
      ...current,
      profile: current.profile ? { ...current.profile, ...patch } : current.profile,
    }))

  return { ...state, patchProfile }
}
