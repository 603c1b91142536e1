// Builders for the Stripe objects the sandbox serves, with the field names and shapes of the API
// version the pinned `stripe` package speaks (periods live on subscription items; an invoice names
// its subscription under `parent.subscription_details`).
import { newId } from './ids.ts'

export type Metadata = Record<string, string>
export type Interval = 'day' | 'week' | 'month' | 'year'

interface ApiList<T> {
  object: 'list'
  data: T[]
  has_more: boolean
  url: string
  total_count?: number
}

export interface Customer {
  id: string
  object: 'customer'
  email: string | null
  name: string | null
  description: string | null
  phone: string | null
  metadata: Metadata
  created: number
  livemode: false
  balance: number
  currency: string | null
  delinquent: boolean
  address: null
  invoice_settings: { default_payment_method: string | null }
  test_clock: null
}

export interface Product {
  id: string
  object: 'product'
  active: boolean
  name: string
  description: string | null
  metadata: Metadata
  created: number
  updated: number
  livemode: false
  default_price: string | null
  images: string[]
  url: string | null
}

export interface Price {
  id: string
  object: 'price'
  active: boolean
  currency: string
  unit_amount: number
  unit_amount_decimal: string
  product: string
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed'; meter: null } | null
  type: 'recurring' | 'one_time'
  billing_scheme: 'per_unit'
  nickname: string | null
  lookup_key: string | null
  metadata: Metadata
  tax_behavior: 'unspecified'
  created: number
  livemode: false
}

export interface LineItem {
  id: string
  object: 'item'
  amount_subtotal: number
  amount_total: number
  amount_discount: number
  amount_tax: number
  currency: string
  description: string
  price: Price
  quantity: number
}

export interface Session {
  id: string
  object: 'checkout.session'
  mode: 'subscription'
  status: 'open' | 'complete' | 'expired'
  payment_status: 'unpaid' | 'paid' | 'no_payment_required'
  amount_subtotal: number
  amount_total: number
  currency: string
  customer: string | null
  customer_email: string | null
  customer_details: { email: string | null; name: string | null } | null
  client_reference_id: string | null
  metadata: Metadata
  subscription: string | null
  invoice: string | null
  success_url: string
  cancel_url: string | null
  url: string | null
  created: number
  expires_at: number
  livemode: false
  /** Not a Stripe field on the session itself; kept so the hosted page can show the trial. */
  subscription_data?: { trial_period_days: number | null; metadata: Metadata; description: string | null }
}

export interface SubscriptionItem {
  id: string
  object: 'subscription_item'
  created: number
  current_period_start: number
  current_period_end: number
  metadata: Metadata
  price: Price
  quantity: number
  subscription: string
}

export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'paused'

export interface Subscription {
  id: string
  object: 'subscription'
  customer: string
  status: SubscriptionStatus
  items: ApiList<SubscriptionItem>
  cancel_at: number | null
  cancel_at_period_end: boolean
  canceled_at: number | null
  ended_at: number | null
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null }
  billing_cycle_anchor: number
  collection_method: 'charge_automatically'
  created: number
  start_date: number
  currency: string
  default_payment_method: string | null
  description: string | null
  latest_invoice: string | null
  metadata: Metadata
  trial_start: number | null
  trial_end: number | null
  /** Items a `pending_if_incomplete` update will apply once its invoice is paid; null otherwise. */
  pending_update: {
    expires_at: number
    subscription_items: Array<{ id: string; price: string; quantity: number }>
  } | null
  livemode: false
  test_clock: null
}

export interface InvoiceLine {
  id: string
  object: 'line_item'
  amount: number
  currency: string
  description: string
  period: { start: number; end: number }
  quantity: number
  pricing: {
    type: 'price_details'
    price_details: { price: string; product: string }
    unit_amount_decimal: string
  }
  parent: {
    type: 'subscription_item_details'
    subscription_item_details: { subscription: string; subscription_item: string; proration: boolean }
  }
  metadata: Metadata
}

export interface Invoice {
  id: string
  object: 'invoice'
  customer: string
  customer_email: string | null
  customer_name: string | null
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void'
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual'
  collection_method: 'charge_automatically'
  currency: string
  amount_due: number
  amount_paid: number
  amount_remaining: number
  subtotal: number
  total: number
  attempt_count: number
  attempted: boolean
  next_payment_attempt: number | null
  /** Null on a preview (create_preview), which is never finalized. */
  number: string | null
  description: string | null
  hosted_invoice_url: string | null
  invoice_pdf: string | null
  lines: ApiList<InvoiceLine>
  parent: {
    type: 'subscription_details'
    subscription_details: { subscription: string; metadata: Metadata }
  }
  period_start: number
  period_end: number
  status_transitions: {
    finalized_at: number | null
    paid_at: number | null
    marked_uncollectible_at: number | null
    voided_at: number | null
  }
  metadata: Metadata
  created: number
  livemode: false
}

export interface PortalSession {
  id: string
  object: 'billing_portal.session'
  customer: string
  return_url: string | null
  url: string
  created: number
  livemode: false
  configuration: string
  locale: null
  on_behalf_of: null
  flow: null
}

export interface StripeEvent {
  id: string
  object: 'event'
  api_version: string
  created: number
  data: { object: unknown; previous_attributes?: Record<string, unknown> }
  livemode: false
  pending_webhooks: number
  request: { id: string | null; idempotency_key: string | null }
  type: string
}

export interface DeliveryAttempt {
  attempt: number
  at: string
  status: number | null
  error: string | null
  duration_ms: number
}

export interface EventRecord {
  event: StripeEvent
  customer: string | null
  /** pending: queued or retrying; held: waiting for a release; delivered; failed: retries exhausted. */
  status: 'pending' | 'held' | 'delivered' | 'failed'
  attempts: DeliveryAttempt[]
  next_attempt_at: string | null
}

export function listOf<T>(data: T[], url: string, hasMore = false): ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url }
}

/** Adds whole intervals as Stripe does: months keep the anchor day, clamped to the month's end. */
export function addInterval(at: number, interval: Interval, count: number): number {
  const date = new Date(at * 1000)
  if (interval === 'day') return at + count * 86_400
  if (interval === 'week') return at + count * 7 * 86_400
  const months = interval === 'year' ? count * 12 : count
  const day = date.getUTCDate()
  const target = new Date(date)
  target.setUTCDate(1)
  target.setUTCMonth(target.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(day, lastDay))
  return Math.floor(target.getTime() / 1000)
}

export function buildCustomer(
  now: number,
  input: {
    email?: string | null
    name?: string | null
    description?: string | null
    phone?: string | null
    metadata?: Metadata
  },
): Customer {
  return {
    id: newId('cus', 14),
    object: 'customer',
    email: input.email ?? null,
    name: input.name ?? null,
    description: input.description ?? null,
    phone: input.phone ?? null,
    metadata: input.metadata ?? {},
    created: now,
    livemode: false,
    balance: 0,
    currency: null,
    delinquent: false,
    address: null,
    invoice_settings: { default_payment_method: null },
    test_clock: null,
  }
}

export function buildProduct(
  now: number,
  input: { name: string; description?: string | null; metadata?: Metadata; active?: boolean },
): Product {
  return {
    id: newId('prod', 14),
    object: 'product',
    active: input.active ?? true,
    name: input.name,
    description: input.description ?? null,
    metadata: input.metadata ?? {},
    created: now,
    updated: now,
    livemode: false,
    default_price: null,
    images: [],
    url: null,
  }
}

export function buildPrice(
  now: number,
  input: {
    product: string
    currency: string
    unit_amount: number
    recurring?: { interval: Interval; interval_count?: number } | null
    nickname?: string | null
    lookup_key?: string | null
    metadata?: Metadata
    active?: boolean
  },
): Price {
  return {
    id: newId('price'),
    object: 'price',
    active: input.active ?? true,
    currency: input.currency.toLowerCase(),
    unit_amount: input.unit_amount,
    unit_amount_decimal: String(input.unit_amount),
    product: input.product,
    recurring: input.recurring
      ? {
          interval: input.recurring.interval,
          interval_count: input.recurring.interval_count ?? 1,
          usage_type: 'licensed',
          meter: null,
        }
      : null,
    type: input.recurring ? 'recurring' : 'one_time',
    billing_scheme: 'per_unit',
    nickname: input.nickname ?? null,
    lookup_key: input.lookup_key ?? null,
    metadata: input.metadata ?? {},
    tax_behavior: 'unspecified',
    created: now,
    livemode: false,
  }
}

/** "$39.00" style amounts, in the currency's major unit. */
export function formatAmount(cents: number, currency: string): string {
  const major = (cents / 100).toFixed(2)
  return currency.toLowerCase() === 'usd' ? `$${major}` : `${major} ${currency.toUpperCase()}`
}

/** "month", "3 months", "year": how often a price recurs, in words. */
export function describeInterval(price: Price): string {
  if (!price.recurring) return 'once'
  const { interval, interval_count: count } = price.recurring
  return count === 1 ? interval : `${count} ${interval}s`
}
