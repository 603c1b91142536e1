import { formatMoney } from '@reachflow/domain'
import { AlertTriangle, CheckCircle2, Clock, PartyPopper } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { analytics } from '@/lib/analytics'
import { planName } from '@/lib/plans'
import { type CheckoutSession, getCheckoutSession, NO_SESSION_ID } from '../api/get-checkout-session'

type State =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; session: CheckoutSession }

const cycleLabel = (cycle: string | null | undefined) =>
  cycle === 'yearly' ? 'Yearly' : cycle === 'monthly' ? 'Monthly' : cycle ? cycle : 'Monthly'

const longDate = (iso: string | null | undefined) =>
  iso
    ? new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' })
    : 'the trial ends'

/**
 * The summary rows: what was charged today and, for a trial, when the first charge comes and how
 * much it is (the product's "amount paid / status Active" reads only for a payment).
 */
export function successRows(session: CheckoutSession): Array<[string, string]> {
  const meta = session.metadata ?? {}
  const email = session.customer?.email ?? session.customer_details?.email ?? '—'
  const common: Array<[string, string]> = [
    ['Email', email],
    ['Plan', planName(meta.planType)],
    ['Number of accounts', String(meta.accounts ?? 1)],
    ['Billing cycle', cycleLabel(meta.billing_cycle)],
  ]
  if (session.outcome === 'trial')
    return [
      ...common,
      ['Due today', formatMoney(0)],
      ['Status', 'Free trial'],
      [
        'First charge',
        `${formatMoney(session.first_charge_amount ?? session.amount_total ?? 0)} on ${longDate(session.first_charge_at)}`,
      ],
      ['Payment method', 'Card'],
    ]
  return [
    ...common,
    ['Amount paid', formatMoney(session.amount_due_today ?? session.amount_total ?? 0)],
    ['Status', session.outcome === 'pending' ? 'Processing' : 'Active'],
    ['Payment method', 'Card'],
  ]
}

/** /success: the outcome of checkout, read from the payment provider through our API (product.md §2). */
export function PaymentSuccess() {
  const [params] = useSearchParams()
  const sessionId = params.get('session_id')
  const [state, setState] = useState<State>(
    sessionId ? { status: 'loading' } : { status: 'error', message: NO_SESSION_ID },
  )
  const tracked = useRef(false)

  useEffect(() => {
    if (!sessionId) return
    let cancelled = false
    getCheckoutSession(sessionId)
      .then((session) => {
        if (cancelled) return
        setState({ status: 'ready', session })
        if (tracked.current) return
        tracked.current = true
        const value = (session.amount_total ?? 0) / 100
        const meta = session.metadata ?? {}
        analytics.track('purchase', {
          value,
          currency: 'USD',
          // The api answers null for a session without them; analytics takes no nulls.
          plan: meta.planType ?? undefined,
          billing_period: meta.billing_cycle ?? undefined,
        })
        analytics.pixel('Purchase', { value, currency: 'USD' })
      })
      .catch((error: Error) => !cancelled && setState({ status: 'error', message: error.message }))
    return () => {
      cancelled = true
    }
  }, [sessionId])

  if (state.status === 'loading') {
    return (
      <div className="flex flex-col items-center gap-4 py-10 text-slate-600">
        <Spinner size={48} className="text-brand-600" label="Loading payment details" />
        <p>Confirming your payment...</p>
      </div>
    )
  }

  if (state.status === 'error') {
    return (
      <div className="text-center">
        <AlertTriangle className="mx-auto size-12 text-red-500" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Error Loading Payment Details</h1>
        <p className="mt-2 text-slate-600">{state.message}</p>
        <Link to={paths.home} className={buttonClasses('primary', 'lg', 'mt-8')}>
          Return to Home
        </Link>
      </div>
    )
  }

  const { session } = state
  const rows = successRows(session)
  const trial = session.outcome === 'trial'
  return (
    <div className="text-center">
      <span className="mx-auto flex size-16 items-center justify-center rounded-full bg-emerald-100">
        <PartyPopper className="size-8 text-emerald-600" aria-hidden="true" />
      </span>
      <h1 className="mt-5 text-3xl font-bold tracking-tight text-slate-900">Welcome to Reachflow!</h1>
      <p className="mt-2 text-slate-600">
        {trial
          ? `Your free trial has started: nothing is charged until ${longDate(session.trial_end)}.`
          : "Your subscription is set up. Let's launch your first campaign."}
      </p>
      <dl className="mt-8 divide-y divide-slate-100 rounded-2xl border border-slate-200 text-left text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-center justify-between gap-4 px-5 py-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="flex items-center gap-1.5 font-medium text-slate-900">
              {label === 'Status' &&
                (trial ? (
                  <Clock className="size-4 text-brand-600" aria-hidden="true" />
                ) : (
                  <CheckCircle2 className="size-4 text-emerald-500" aria-hidden="true" />
                ))}
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <Link to={paths.dashboard} className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
        Go to Dashboard
      </Link>
    </div>
  )
}
