import { useSearchParams } from 'react-router'
import { useAuth } from '@/lib/auth-store'
import { StartTrialLink } from './cta-links'

/**
 * Google sign-in started from a checkout flow returns to /?checkout=continue (spec §2). The visitor
 * is signed in by then, so the page offers the one next step: the trial, which opens the plan choice.
 */
export function CheckoutContinueNotice() {
  const [params] = useSearchParams()
  const signedIn = useAuth((s) => Boolean(s.user))
  if (params.get('checkout') !== 'continue' || !signedIn) return null
  return (
    <div className="border-b border-emerald-200 bg-emerald-50">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-3 text-sm text-emerald-900 sm:flex-row sm:px-6 lg:px-8">
        <p className="font-medium">You are signed in. Choose your plan to start your 3-day free trial.</p>
        <StartTrialLink placement="checkout-continue" size="sm">
          Continue to Free Trial
        </StartTrialLink>
      </div>
    </div>
  )
}
