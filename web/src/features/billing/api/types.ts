// Spec §3 rows as the billing page reads them (own rows only, under row-level security).
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled' | 'trialing'

export interface Subscription {
  user_id: string
  status: SubscriptionStatus
  plan_type: string | null
  accounts_purchased: number | null
  current_period_start: string | null
  current_period_end: string | null
  cancel_at_period_end: boolean | null
}

export type PaymentStatus = 'succeeded' | 'failed' | 'pending'

export interface Payment {
  id: string
  user_id: string
  amount: number
  status: PaymentStatus
  payment_type: string | null
  description: string | null
  created_at: string
  stripe_invoice_id: string | null
}
