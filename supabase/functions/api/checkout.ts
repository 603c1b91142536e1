// POST /api/create-checkout-session and GET /api/checkout-session/{id}. The server prices the plan
// itself with pricing.ts (the body's price and priceId are the client's view, never charged) and
// opens a Stripe Checkout subscription for the caller's active workspace (its owner only): quantity =
// accounts, a 3-day trial for the workspace's first subscription, the metadata of product.md §3 plus
// the workspace, the workspace's own Stripe customer, success and cancel pages on SITE_URL.

import { type CheckoutCreated, type CheckoutSessionView, PricingError, quote } from '@reachflow/domain'
import { requireEnv } from '../_shared/env.ts'
import { forbidden, HttpError, jsonResponse, notFound, unprocessable } from '../_shared/errors.ts'
import { Stripe } from '../_shared/stripe.ts'
import { parseBody, z } from '../_shared/validation.ts'
import { ownedWorkspace } from './billing-workspace.ts'
import type { CallContext } from './deps.ts'

export const CHECKOUT_FAILED = 'Failed to create checkout session'
const SESSION_NOT_FOUND = 'Checkout session not found'

const checkoutBody = z.object({
  userId: z.string().max(100).optional(),
  priceId: z.string().max(200).optional(),
  planType: z.enum(
    ['starter', 'growth', 'enterprise', 'bundle'],
    'planType must be starter, growth or bundle',
  ),
  billingPeriod: z.enum(['monthly', 'yearly'], 'billingPeriod must be monthly or yearly').default('monthly'),
  planName: z.string().trim().max(100).optional(),
  price: z.number().optional(),
  accountCount: z
    .number('accountCount must be a whole number')
    .int('accountCount must be a whole number')
    .default(1),
  source: z.string().trim().max(100).optional(),
})

const PLAN_NAMES = {
  starter: 'Starter',
  growth: 'Growth',
  enterprise: 'Enterprise',
  bundle: '3 Month Bundle',
} as const

/** Stripe's answer as the caller should see it: a missing object is a 404, anything else a 502. */
export function stripeFailure(error: unknown, message: string, notFoundMessage?: string): HttpError {
  if (error instanceof Stripe.errors.StripeError) {
    if (notFoundMessage && error.statusCode === 404) return notFound(notFoundMessage)
    console.error('Stripe call failed', error.type, error.code, error.message)
    return new HttpError(502, message)
  }
  throw error
}

export async function createCheckoutSession(req: Request, ctx: CallContext): Promise<Response> {
  const body = await parseBody(req, checkoutBody)
  if (body.userId && body.userId !== ctx.caller.id)
    throw forbidden('A checkout can only be started for yourself')
  const workspace = await ownedWorkspace(ctx)
  let priced: ReturnType<typeof quote>
  try {
    priced = quote(body.planType, body.billingPeriod, body.planType === 'growth' ? body.accountCount : 1)
  } catch (error) {
    if (error instanceof PricingError) throw unprocessable(error.message)
    throw error
  }
  const siteUrl = requireEnv('SITE_URL', ctx.deps.env).replace(/\/$/, '')

  // A workspace keeps its Stripe customer (one portal, one card, its own invoices), so a client's
  // workspace is never billed to the agency's personal card by accident; the trial is for the
  // workspace's first plan.
  const { data: previous, error } = await ctx.caller.db
    .from('subscriptions')
    .select('stripe_customer_id')
    .eq('workspace_id', workspace.id)
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Reading subscriptions failed: ${error.message}`)
  const customer =
    workspace.stripeCustomerId ?? previous.find((r) => r.stripe_customer_id)?.stripe_customer_id ?? undefined
  const billingCycle = priced.plan === 'bundle' ? 'quarterly' : priced.period
  const metadata = {
    userId: ctx.caller.id,
    workspaceId: workspace.id,
    planType: priced.plan,
    billing_cycle: billingCycle,
    accounts: String(priced.accounts),
    traffic_source: body.source || 'unknown',
  }
  let session: Stripe.Checkout.Session
  try {
    session = await ctx.deps.stripe().checkout.sessions.create({
      mode: 'subscription',
      line_items: [
        {
          quantity: priced.accounts,
          price_data: {
            currency: 'usd',
            unit_amount: priced.unitAmountCents,
            recurring: { interval: priced.interval, interval_count: priced.intervalCount },
            product_data: { name: `Reachflow ${PLAN_NAMES[priced.plan]}` },
          },
        },
      ],
      ...(customer ? { customer } : ctx.caller.email ? { customer_email: ctx.caller.email } : {}),
      client_reference_id: ctx.caller.id,
      metadata,
      subscription_data: {
        ...(previous.length === 0 ? { trial_period_days: priced.trialDays } : {}),
        metadata,
      },
      success_url: `${siteUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${siteUrl}/cancel`,
    })
  } catch (failure) {
    throw stripeFailure(failure, CHECKOUT_FAILED)
  }
  if (!session.url) throw new HttpError(502, CHECKOUT_FAILED)
  return jsonResponse({ url: session.url, sessionId: session.id } satisfies CheckoutCreated)
}

/** product.md §3 checkout session: amount_total (cents), customer.email, metadata; only the caller's own. */
export async function getCheckoutSession(_req: Request, ctx: CallContext): Promise<Response> {
  const id = ctx.params.id ?? ''
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(id)) throw notFound(SESSION_NOT_FOUND)
  let session: Stripe.Checkout.Session
  try {
    session = await ctx.deps.stripe().checkout.sessions.retrieve(id)
  } catch (failure) {
    throw stripeFailure(failure, 'Failed to fetch session data', SESSION_NOT_FOUND)
  }
  const owner = session.metadata?.userId ?? session.client_reference_id
  if (owner !== ctx.caller.id) throw notFound(SESSION_NOT_FOUND)
  const email = session.customer_details?.email ?? session.customer_email ?? null
  const subscriptionId =
    typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null)
  return jsonResponse({
    ...(await checkoutOutcome(ctx, subscriptionId, session.amount_total ?? 0)),
    id: session.id,
    status: session.status,
    payment_status: session.payment_status,
    amount_total: session.amount_total,
    currency: session.currency,
    customer: { email },
    customer_details: { email },
    subscription: subscriptionId,
    metadata: {
      planType: session.metadata?.planType ?? null,
      billing_cycle: session.metadata?.billing_cycle ?? null,
      accounts: session.metadata?.accounts ?? null,
      traffic_source: session.metadata?.traffic_source ?? null,
    },
  } satisfies CheckoutSessionView)
}

/**
 * What the checkout actually did, for /success: a trial charges nothing today and
 * names the first charge (date and amount); otherwise the amount paid. Read from the subscription,
 * so the page never says "Amount paid $49.00 / Active" when $0 was due.
 */
async function checkoutOutcome(
  ctx: CallContext,
  subscriptionId: string | null,
  amountTotal: number,
): Promise<{
  outcome: 'trial' | 'paid' | 'pending'
  amount_due_today: number
  trial_end: string | null
  first_charge_amount: number | null
  first_charge_at: string | null
  subscription_status: string | null
}> {
  if (!subscriptionId)
    return {
      outcome: 'pending',
      amount_due_today: amountTotal,
      trial_end: null,
      first_charge_amount: null,
      first_charge_at: null,
      subscription_status: null,
    }
  let subscription: Stripe.Subscription
  try {
    subscription = await ctx.deps.stripe().subscriptions.retrieve(subscriptionId)
  } catch (failure) {
    throw stripeFailure(failure, 'Failed to fetch session data')
  }
  const recurring = subscription.items.data.reduce(
    (sum, item) => sum + (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
    0,
  )
  const iso = (seconds: number | null | undefined) =>
    seconds ? new Date(seconds * 1000).toISOString() : null
  if (subscription.status === 'trialing' && subscription.trial_end) {
    return {
      outcome: 'trial',
      amount_due_today: 0,
      trial_end: iso(subscription.trial_end),
      first_charge_amount: recurring,
      first_charge_at: iso(subscription.trial_end),
      subscription_status: subscription.status,
    }
  }
  return {
    outcome: subscription.status === 'active' ? 'paid' : 'pending',
    amount_due_today: amountTotal,
    trial_end: null,
    first_charge_amount: null,
    first_charge_at: null,
    subscription_status: subscription.status,
  }
}
