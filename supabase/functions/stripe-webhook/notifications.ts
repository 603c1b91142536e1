// What the customer reads in the bell after a billing event (notifications.type is free text; these
// get the generic icon). One notification per Stripe event: the webhook handles each event once.

import { formatMoney } from '@reachflow/domain'
import type { SupabaseClient } from '../_shared/clients.ts'
import { DatabaseError } from '../_shared/db-errors.ts'
import type { PaymentRow, SubscriptionRow } from '../_shared/stripe-sync.ts'

const PLAN_NAMES: Record<string, string> = {
  starter: 'Starter',
  growth: 'Growth',
  enterprise: 'Enterprise',
  bundle: '3 Month Bundle',
}

export interface BillingNotice {
  type: string
  title: string
  message: string
}

const day = (iso: string | null) => iso?.slice(0, 10) ?? 'the end of the period'
const plan = (row: SubscriptionRow) =>
  `${PLAN_NAMES[row.plan_type] ?? row.plan_type} plan for ${row.accounts_purchased} account${row.accounts_purchased === 1 ? '' : 's'}`

export function subscriptionStarted(row: SubscriptionRow): BillingNotice {
  if (row.status === 'trialing') {
    return {
      type: 'subscription_started',
      title: 'Your free trial has started',
      message: `${plan(row)}. Your trial ends on ${day(row.trial_end ?? row.current_period_end)}.`,
    }
  }
  return { type: 'subscription_started', title: 'Your subscription is active', message: `${plan(row)}.` }
}

export function paymentNotice(payment: PaymentRow, row: SubscriptionRow): BillingNotice | null {
  if (payment.status === 'succeeded') {
    return {
      type: 'payment_succeeded',
      title: 'Payment received',
      message: `${formatMoney(payment.amount)} for your ${plan(row)}.`,
    }
  }
  if (payment.status === 'failed') {
    return {
      type: 'payment_failed',
      title: 'Payment failed',
      message: `We could not charge ${formatMoney(payment.amount)} for your ${plan(row)}. Update your card on the Billing page to keep your accounts running.`,
    }
  }
  return null
}

export function cancellationScheduled(row: SubscriptionRow): BillingNotice {
  return {
    type: 'subscription_cancel_scheduled',
    title: 'Subscription cancelled',
    message: `Your ${plan(row)} stays active until ${day(row.current_period_end)}.`,
  }
}

export function subscriptionResumed(row: SubscriptionRow): BillingNotice {
  return {
    type: 'subscription_resumed',
    title: 'Subscription resumed',
    message: `Your ${plan(row)} continues.`,
  }
}

export function subscriptionEnded(row: SubscriptionRow): BillingNotice {
  return {
    type: 'subscription_canceled',
    title: 'Subscription ended',
    message: `Your ${plan(row)} has ended. You are on the free plan (1 account) now.`,
  }
}

/** Tells the buyer, in the workspace the subscription bills (where they look at its plan). */
export async function notify(
  service: SupabaseClient,
  to: Pick<SubscriptionRow, 'user_id' | 'workspace_id'>,
  notice: BillingNotice,
  metadata: Record<string, string>,
): Promise<void> {
  const { error } = await service
    .from('notifications')
    .insert({ user_id: to.user_id, workspace_id: to.workspace_id, ...notice, metadata })
  if (error) throw new DatabaseError(error)
}
