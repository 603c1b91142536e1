// product.md §3 rows as the billing page reads them (own rows only, under row-level security).
import type { Tables } from '@reachflow/db'

export type Subscription = Pick<
  Tables<'subscriptions'>,
  | 'user_id'
  | 'status'
  | 'plan_type'
  | 'accounts_purchased'
  | 'current_period_start'
  | 'current_period_end'
  | 'cancel_at_period_end'
>

export type Payment = Pick<
  Tables<'payments'>,
  'id' | 'user_id' | 'amount' | 'status' | 'payment_type' | 'description' | 'created_at' | 'stripe_invoice_id'
>
