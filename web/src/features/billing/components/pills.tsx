import { cn } from '@/lib/cn'
import type { Payment, Subscription } from '../api/types'
import { subscriptionStatusLabel } from '../billing-display'

const pill = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset'

// Keyed by the statuses the tables' checks allow; an unknown one shows neutral.
const subscriptionTone: Record<string, string> = {
  active: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  trialing: 'bg-brand-50 text-brand-700 ring-brand-600/20',
  past_due: 'bg-amber-50 text-amber-800 ring-amber-600/25',
  canceled: 'bg-slate-100 text-slate-700 ring-slate-500/20',
}

export function SubscriptionStatusPill({ status }: { status: Subscription['status'] }) {
  return (
    <span className={cn(pill, subscriptionTone[status] ?? subscriptionTone.canceled)}>
      {subscriptionStatusLabel[status] ?? status}
    </span>
  )
}

const paymentTone: Record<string, string> = {
  succeeded: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  pending: 'bg-amber-50 text-amber-800 ring-amber-600/25',
  failed: 'bg-red-50 text-red-700 ring-red-600/20',
}

const paymentLabel: Record<string, string> = {
  succeeded: 'Paid',
  pending: 'Pending',
  failed: 'Failed',
}

export function PaymentStatusPill({ status }: { status: Payment['status'] }) {
  return (
    <span className={cn(pill, paymentTone[status] ?? paymentTone.pending)}>
      {paymentLabel[status] ?? status}
    </span>
  )
}
