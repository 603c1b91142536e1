// Writes Stripe's billing state into subscriptions and payments. Callers hand over an id; the object
// is always fetched again from Stripe (never taken from an event body), stamped with the time of
// the fetch, and stored through the service-only RPCs of the stripe_sync migration, which keep the
// newest fetch and never turn a paid invoice back. So a late, replayed or reordered event, or the
// api function syncing right after it changed a subscription, all end in Stripe's current state.
import type { SupabaseClient } from './clients.ts'
import type { Tables } from './database.ts'
import { DatabaseError } from './db-errors.ts'
import { fromJson, nullableText, nullableTimestamp, timestamp, z } from './json.ts'
import type { Stripe } from './stripe.ts'

export type PlanType = 'starter' | 'growth' | 'enterprise' | 'bundle'
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled' | 'trialing' | 'incomplete'

export type SubscriptionRow = Tables<'subscriptions'>
export type PaymentRow = Tables<'payments'>

/** What record_stripe_subscription answers: the stored row (to_jsonb) and whether it was stale. */
const recordedSubscription: z.ZodType<SubscriptionRow & { stale: boolean }> = z.object({
  id: z.string(),
  user_id: z.string(),
  workspace_id: z.string(),
  status: z.string(),
  plan_type: z.string(),
  billing_period: z.string(),
  accounts_purchased: z.number(),
  stripe_customer_id: nullableText,
  stripe_subscription_id: nullableText,
  stripe_price_id: nullableText,
  current_period_start: nullableTimestamp,
  current_period_end: nullableTimestamp,
  cancel_at_period_end: z.boolean(),
  canceled_at: nullableTimestamp,
  trial_end: nullableTimestamp,
  created_at: timestamp,
  updated_at: timestamp,
  stripe_synced_at: nullableTimestamp,
  stale: z.boolean(),
})

/** What record_stripe_payment answers: the stored row (to_jsonb). */
const recordedPayment: z.ZodType<PaymentRow> = z.object({
  id: z.string(),
  user_id: z.string(),
  workspace_id: z.string(),
  subscription_id: nullableText,
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  payment_type: z.string(),
  description: nullableText,
  stripe_invoice_id: nullableText,
  stripe_payment_intent_id: nullableText,
  created_at: timestamp,
})

const PLAN_TYPES: readonly string[] = ['starter', 'growth', 'enterprise', 'bundle']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value)

const iso = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null

/** Stripe's subscription statuses in the five the product knows (product.md §3 plus incomplete). */
export function productStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'canceled':
    case 'incomplete':
      return status as SubscriptionStatus
    case 'incomplete_expired':
      return 'canceled'
    default: // unpaid, paused: the customer owes a payment before the plan works again
      return 'past_due'
  }
}

/** The subscriptions row for a Stripe subscription (everything but ids the database assigns). */
export function subscriptionRowFor(
  subscription: Stripe.Subscription,
  userId: string,
  fetchedAt: Date,
): Omit<SubscriptionRow, 'id' | 'created_at' | 'updated_at' | 'workspace_id'> {
  const items = subscription.items.data
  const first = items[0]
  const recurring = first?.price.recurring
  const quantity = items.reduce((sum, item) => sum + (item.quantity ?? 0), 0)
  const metaPlan = subscription.metadata?.planType
  const plan: PlanType = PLAN_TYPES.includes(metaPlan ?? '')
    ? (metaPlan as PlanType)
    : quantity > 1
      ? 'growth'
      : 'starter'
  const billing_period =
    recurring?.interval === 'year'
      ? 'yearly'
      : recurring?.interval === 'month' && recurring.interval_count === 3
        ? 'quarterly'
        : 'monthly'
  return {
    user_id: userId,
    status: productStatus(subscription.status),
    plan_type: plan,
    billing_period,
    accounts_purchased: Math.max(1, quantity),
    stripe_customer_id:
      typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
    stripe_subscription_id: subscription.id,
    stripe_price_id: first?.price.id ?? null,
    current_period_start: iso(first?.current_period_start),
    current_period_end: iso(first?.current_period_end),
    cancel_at_period_end: subscription.cancel_at_period_end,
    canceled_at: iso(subscription.canceled_at),
    trial_end: iso(subscription.trial_end),
    stripe_synced_at: fetchedAt.toISOString(),
  }
}

/** What an invoice means for the payment history: null for a $0 invoice (a trial's first). */
export function paymentFor(
  invoice: Stripe.Invoice,
  userId: string,
): Omit<PaymentRow, 'id' | 'subscription_id' | 'stripe_payment_intent_id' | 'workspace_id'> | null {
  const amount = invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due
  if (amount <= 0) return null
  const status: PaymentRow['status'] =
    invoice.status === 'paid'
      ? 'succeeded'
      : invoice.status === 'void' || invoice.status === 'uncollectible' || invoice.attempted
        ? 'failed'
        : 'pending'
  const lines = invoice.lines?.data ?? []
  // A plan change bills "Unused time on …" (a credit) then "Remaining time on …": the history names what was bought.
  const line = invoice.billing_reason === 'subscription_update' ? lines.at(-1) : lines[0]
  return {
    user_id: userId,
    amount,
    currency: invoice.currency,
    status,
    payment_type: 'subscription',
    description: line?.description || invoice.description || 'Reachflow subscription',
    stripe_invoice_id: invoice.id ?? '',
    created_at: iso(invoice.status_transitions?.paid_at ?? invoice.created) ?? new Date().toISOString(),
  }
}

export interface SyncDeps {
  stripe: Stripe
  /** The service-role client: these tables are written only by the system. */
  service: SupabaseClient
  now?: () => Date
}

async function ownerOf(service: SupabaseClient, subscription: Stripe.Subscription): Promise<string | null> {
  const customer =
    typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id
  for (const [column, value] of [
    ['stripe_subscription_id', subscription.id],
    ['stripe_customer_id', customer],
  ] as const) {
    const { data, error } = await service
      .from('subscriptions')
      .select('user_id')
      .eq(column, value)
      .order('created_at', { ascending: false })
      .limit(1)
    if (error) throw new DatabaseError(error)
    const owner = data?.[0]?.user_id
    if (owner) return owner
  }
  return null
}

/**
 * The workspace a subscription bills: the one its checkout named (metadata), else the one whose
 * Stripe customer it is. Null leaves it to the database (an existing row keeps its workspace, a new
 * one goes to the buyer's active workspace).
 */
async function workspaceOf(
  service: SupabaseClient,
  subscription: Stripe.Subscription,
): Promise<string | null> {
  const named = subscription.metadata?.workspaceId
  if (isUuid(named)) return named
  const customer =
    typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id
  const { data, error } = await service
    .from('workspaces')
    .select('id')
    .eq('stripe_customer_id', customer)
    .maybeSingle()
  if (error) throw new DatabaseError(error)
  return data?.id ?? null
}

export interface SyncedSubscription {
  row: SubscriptionRow
  /** True when a newer fetch had already been stored and this one changed nothing. */
  stale: boolean
  subscription: Stripe.Subscription
}

/**
 * Fetches the subscription from Stripe and stores it under its workspace (workspaceOf). The buyer is
 * the userId in the subscription's metadata (set at checkout), else `userIdHint` (the checkout
 * session's), else whoever already has this subscription or customer. Null when no customer of ours
 * owns it.
 */
export async function syncSubscription(
  deps: SyncDeps,
  subscriptionId: string,
  userIdHint?: string | null,
): Promise<SyncedSubscription | null> {
  const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId)
  const fetchedAt = (deps.now ?? (() => new Date()))()
  const metaUser = subscription.metadata?.userId
  const userId = isUuid(metaUser)
    ? metaUser
    : isUuid(userIdHint)
      ? userIdHint
      : await ownerOf(deps.service, subscription)
  if (!userId) return null
  const workspaceId = await workspaceOf(deps.service, subscription)
  const { data, error } = await deps.service.rpc('record_stripe_subscription', {
    p_subscription: { ...subscriptionRowFor(subscription, userId, fetchedAt), workspace_id: workspaceId },
  })
  if (error) {
    // The user or workspace named in the metadata no longer exists (deleted since checkout): not ours to keep.
    if (error.code === '23503') return null
    throw new DatabaseError(error)
  }
  const { stale, ...row } = fromJson(recordedSubscription, data, 'record_stripe_subscription')
  return { row, stale, subscription }
}

export interface SyncedPayment {
  payment: PaymentRow | null
  invoice: Stripe.Invoice
  subscription: SyncedSubscription | null
}

/** The Stripe subscription an invoice bills, as an id (API 2025+: under parent.subscription_details). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const subscription = invoice.parent?.subscription_details?.subscription
  if (!subscription) return null
  return typeof subscription === 'string' ? subscription : subscription.id
}

/** Fetches the invoice (and its subscription) from Stripe and records the payment it stands for. */
export async function syncInvoicePayment(deps: SyncDeps, invoiceId: string): Promise<SyncedPayment | null> {
  const invoice = await deps.stripe.invoices.retrieve(invoiceId)
  const subscriptionId = invoiceSubscriptionId(invoice)
  if (!subscriptionId) return null // one-off invoices are not part of the product
  const subscription = await syncSubscription(deps, subscriptionId)
  if (!subscription) return null
  const payment = paymentFor(invoice, subscription.row.user_id)
  if (!payment) return { payment: null, invoice, subscription }
  const { data, error } = await deps.service.rpc('record_stripe_payment', {
    p_payment: payment,
    p_stripe_subscription_id: subscriptionId,
  })
  if (error) throw new DatabaseError(error)
  return { payment: fromJson(recordedPayment, data, 'record_stripe_payment'), invoice, subscription }
}
