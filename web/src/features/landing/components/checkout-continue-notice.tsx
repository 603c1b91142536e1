import { useSearchParams } from 'react-router'
import { useAuth } from '@/lib/auth-store'
import { StartTrialLink } from './cta-links'

/**
 * Google sign-in started from a checkout flow returns to /?checkout=continue (product.md §2). The visitor
 * is signed in by then, so the page offers the one next step: the trial, which opens the plan choice.
 */
export function CheckoutContinueNotice() {
  const [params] = useSearchParams()
  const signedIn = useAuth((s) => Boolean(s.user))
  if (params.get('checkout') !== 'continue' || !signedIn) return null
  return (
    <div
      role="status"
      className="mt-8 flex flex-col items-center justify-between gap-3 rounded-2xl bg-emerald-50 px-5 py-4 text-left text-sm text-emerald-900 ring-1 ring-emerald-200 sm:flex-row"
    >
      <p className="font-medium">You are signed in. Choose your plan to start your 3-day free trial.</p>
      <StartTrialLink placement="checkout-continue" size="sm" className="shrink-0">
        Continue to Free Trial
      </StartTrialLink>
    </div>
  )
}
