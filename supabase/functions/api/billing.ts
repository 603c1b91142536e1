// The billing page's calls: cancel at period end, resume, a billing-portal link, and one of the
// workspace's hosted invoices, for the active workspace's owner only. Stripe is told first; the subscription row is then synced from Stripe
// at once (the webhook that follows finds it already current and changes nothing).
import type { InvoiceLink, SubscriptionChanged } from '@reachflow/domain'
import { requireEnv } from '../_shared/env.ts'
import { conflict, jsonResponse, notFound } from '../_shared/errors.ts'
import { type SubscriptionRow, syncSubscription } from '../_shared/stripe-sync.ts'
import { ownedWorkspace } from './billing-workspace.ts'
import { stripeFailure } from './checkout.ts'
import type { CallContext } from './deps.ts'

export const NO_SUBSCRIPTION = 'No subscription found'
export const NOT_ACTIVE = 'Subscription is not active'

type StripeSubscriptionRow = SubscriptionRow & { stripe_subscription_id: string }

/** The subscription that decides the workspace's plan: a usable one first, else the newest. */
export async function currentSubscription(
  ctx: CallContext,
  workspaceId: string,
): Promise<StripeSubscriptionRow> {
  const { data, error } = await ctx.caller.db
    .from('subscriptions')
    .select('*')
    .eq('workspace_id', workspaceId)
    .not('stripe_subscription_id', 'is', null)
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Reading subscriptions failed: ${error.message}`)
  const rows = (data ?? []).filter((r): r is StripeSubscriptionRow => r.stripe_subscription_id !== null)
  const usable = rows.find((r) => ['active', 'trialing', 'past_due'].includes(r.status))
  const row = usable ?? rows[0]
  if (!row) throw notFound(NO_SUBSCRIPTION)
  return row
}

async function setCancelAtPeriodEnd(ctx: CallContext, cancel: boolean): Promise<Response> {
  const workspace = await ownedWorkspace(ctx)
  const row = await currentSubscription(ctx, workspace.id)
  if (row.status === 'canceled' || row.status === 'incomplete') throw conflict(NOT_ACTIVE)
  if (row.cancel_at_period_end !== cancel) {
    try {
      await ctx.deps
        .stripe()
        .subscriptions.update(row.stripe_subscription_id, { cancel_at_period_end: cancel })
    } catch (failure) {
      throw stripeFailure(failure, 'The subscription could not be changed right now. Please try again.')
    }
  }
  const synced = await syncSubscription(
    { stripe: ctx.deps.stripe(), service: ctx.service(), now: ctx.deps.now },
    row.stripe_subscription_id,
    ctx.caller.id,
  )
  const subscription = synced?.row ?? row
  return jsonResponse({
    subscription,
    message: cancel
      ? `Your subscription will end on ${subscription.current_period_end?.slice(0, 10) ?? 'the end of the period'}.`
      : 'Your subscription will continue.',
  } satisfies SubscriptionChanged)
}

export const cancelSubscription = (_req: Request, ctx: CallContext) => setCancelAtPeriodEnd(ctx, true)
export const resumeSubscription = (_req: Request, ctx: CallContext) => setCancelAtPeriodEnd(ctx, false)

export async function billingPortal(_req: Request, ctx: CallContext): Promise<Response> {
  const workspace = await ownedWorkspace(ctx)
  const customer =
    workspace.stripeCustomerId ?? (await currentSubscription(ctx, workspace.id)).stripe_customer_id
  if (!customer) throw notFound(NO_SUBSCRIPTION)
  const siteUrl = requireEnv('SITE_URL', ctx.deps.env).replace(/\/$/, '')
  try {
    const portal = await ctx.deps.stripe().billingPortal.sessions.create({
      customer,
      return_url: `${siteUrl}/billing`,
    })
    return jsonResponse({ url: portal.url })
  } catch (failure) {
    throw stripeFailure(failure, 'The billing portal could not be opened right now. Please try again.')
  }
}

/** The hosted page (and PDF) of an invoice in the workspace's payment history. */
export async function invoiceLink(_req: Request, ctx: CallContext): Promise<Response> {
  const invoiceId = ctx.params.id ?? ''
  const NOT_FOUND = 'Invoice not found'
  const workspace = await ownedWorkspace(ctx)
  if (!/^in_[A-Za-z0-9_]{1,200}$/.test(invoiceId)) throw notFound(NOT_FOUND)
  const { data, error } = await ctx.caller.db
    .from('payments')
    .select('id')
    .eq('workspace_id', workspace.id)
    .eq('stripe_invoice_id', invoiceId)
    .maybeSingle()
  if (error) throw new Error(`Reading payments failed: ${error.message}`)
  if (!data) throw notFound(NOT_FOUND)
  try {
    const invoice = await ctx.deps.stripe().invoices.retrieve(invoiceId)
    if (!invoice.hosted_invoice_url) throw notFound(NOT_FOUND)
    return jsonResponse({
      url: invoice.hosted_invoice_url,
      pdf: invoice.invoice_pdf ?? null,
    } satisfies InvoiceLink)
  } catch (failure) {
    if (failure instanceof Error && failure.name === 'HttpError') throw failure
    throw stripeFailure(failure, 'The invoice could not be opened right now. Please try again.', NOT_FOUND)
  }
}
