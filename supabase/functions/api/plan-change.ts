// POST /billing/change-preview and /billing/change-plan: more or fewer accounts on the current plan,
// as Stripe does it. The preview is Stripe's own invoice preview (invoices.createPreview) of the item
// update with always_invoice, so the prorations shown are Stripe's amounts; confirming sends the
// same proration_date, so the charge is what was shown. payment_behavior=pending_if_incomplete
// keeps the old quantity until the proration is paid: the row is then synced from Stripe at once,
// so the new limit holds the moment Stripe accepted it, and never before.
import type { PlanChanged, PlanChangePreview } from '@reachflow/domain'
import { conflict, HttpError, jsonResponse } from '../_shared/errors.ts'
import type { Stripe } from '../_shared/stripe.ts'
import { syncInvoicePayment, syncSubscription } from '../_shared/stripe-sync.ts'
import { parseBody, z } from '../_shared/validation.ts'
import { currentSubscription, NOT_ACTIVE } from './billing.ts'
import { ownedWorkspace } from './billing-workspace.ts'
import { stripeFailure } from './checkout.ts'
import type { CallContext } from './deps.ts'
import { type ConnectedAccount, downgradeBlock, downgradeRefused, priceChange } from './plan-change-rules.ts'

const PLAN_NAMES = { starter: 'Reachflow Starter', growth: 'Reachflow Growth' } as const
/** How long a preview's proration date may be confirmed: an older one is previewed again. */
const PREVIEW_VALID_SECONDS = 3600
export const PREVIEW_EXPIRED = 'This price preview has expired. Please review the change again.'
export const CARD_REFUSED =
  'Your card was declined, so your plan has not changed. Update your card in the billing portal and try again.'
const CHANGE_FAILED = 'The plan could not be changed right now. Please try again.'

const accountsField = z
  .number('accounts must be a whole number')
  .int('accounts must be a whole number')
  .min(1, 'accounts must be at least 1')
const previewBody = z.object({ accounts: accountsField })
const changeBody = z.object({ accounts: accountsField, prorationDate: z.number().int().positive() })

/** Every account of the workspace, whoever connected it (the owner has been checked). */
async function connectedAccounts(ctx: CallContext, workspaceId: string): Promise<ConnectedAccount[]> {
  const { data, error } = await ctx
    .service()
    .from('social_accounts')
    .select('id, username, created_at, platform:platforms(display_name)')
    .eq('workspace_id', workspaceId)
    .order('created_at', { ascending: true })
  if (error) throw new Error(`Reading social accounts failed: ${error.message}`)
  return (data ?? []).map((a) => ({
    id: a.id,
    username: a.username,
    platform: a.platform?.display_name ?? '',
  }))
}

/** Everything both calls need: the workspace's usable subscription, its Stripe item and the priced change. */
async function prepare(ctx: CallContext, accounts: number) {
  const workspace = await ownedWorkspace(ctx)
  const row = await currentSubscription(ctx, workspace.id)
  if (row.status !== 'active' && row.status !== 'trialing') throw conflict(NOT_ACTIVE)
  const priced = priceChange(row, accounts)
  const stripe = ctx.deps.stripe()
  let subscription: Stripe.Subscription
  try {
    subscription = await stripe.subscriptions.retrieve(row.stripe_subscription_id)
  } catch (failure) {
    throw stripeFailure(failure, CHANGE_FAILED)
  }
  const item = subscription.items.data[0]
  if (!item) throw new HttpError(502, CHANGE_FAILED)
  // Growth has its own product; staying on the plan keeps the product the subscription has.
  let product = typeof item.price.product === 'string' ? item.price.product : item.price.product.id
  if (priced.plan !== row.plan_type) {
    try {
      product = (await stripe.products.create({ name: PLAN_NAMES[priced.plan as 'starter' | 'growth'] })).id
    } catch (failure) {
      throw stripeFailure(failure, CHANGE_FAILED)
    }
  }
  const items = [
    {
      id: item.id,
      quantity: priced.accounts,
      price_data: {
        currency: item.price.currency,
        product,
        unit_amount: priced.unitAmountCents,
        recurring: { interval: priced.interval, interval_count: priced.intervalCount },
      },
    },
  ]
  return { workspace, row, priced, stripe, subscription, item, items }
}

type Prepared = Awaited<ReturnType<typeof prepare>>

async function stripePreview(prepared: Prepared, prorationDate?: number): Promise<Stripe.Invoice> {
  try {
    return await prepared.stripe.invoices.createPreview({
      subscription: prepared.subscription.id,
      subscription_details: {
        items: prepared.items,
        proration_behavior: 'always_invoice',
        ...(prorationDate ? { proration_date: prorationDate } : {}),
      },
    })
  } catch (failure) {
    throw stripeFailure(failure, CHANGE_FAILED)
  }
}

export async function previewPlanChange(req: Request, ctx: CallContext): Promise<Response> {
  const { accounts } = await parseBody(req, previewBody)
  const prepared = await prepare(ctx, accounts)
  const { row, priced, item } = prepared
  const connected = await connectedAccounts(ctx, prepared.workspace.id)
  const block = downgradeBlock(priced.accounts, connected)
  const invoice = await stripePreview(prepared)
  const prorations = invoice.lines.data.filter((line) => line.parent?.subscription_item_details?.proration)
  return jsonResponse({
    current: {
      plan: row.plan_type,
      accounts: row.accounts_purchased,
      amount: (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
    },
    next: {
      plan: priced.plan,
      accounts: priced.accounts,
      unitAmount: priced.unitAmountCents,
      amount: priced.amountCents,
      dmsPerDay: priced.dmsPerDay,
    },
    interval: priced.interval,
    trialing: row.status === 'trialing',
    prorationDate: invoice.created,
    lines: prorations.map((line) => ({ description: line.description, amount: line.amount })),
    amountDue: invoice.amount_due,
    credit: Math.max(0, -invoice.total),
    periodEnd: row.current_period_end,
    connected: connected.length,
    blocked: block,
  } satisfies PlanChangePreview)
}

export async function changePlan(req: Request, ctx: CallContext): Promise<Response> {
  const { accounts, prorationDate } = await parseBody(req, changeBody)
  const prepared = await prepare(ctx, accounts)
  const block = downgradeBlock(prepared.priced.accounts, await connectedAccounts(ctx, prepared.workspace.id))
  if (block) throw downgradeRefused(block)
  // Stripe's clock, not ours, says how old the preview is (a fresh preview is stamped with it).
  const stripeNow = (await stripePreview(prepared)).created
  if (prorationDate > stripeNow || prorationDate < stripeNow - PREVIEW_VALID_SECONDS)
    throw conflict(PREVIEW_EXPIRED)

  const { stripe, subscription, priced } = prepared
  let updated: Stripe.Subscription
  try {
    updated = await stripe.subscriptions.update(subscription.id, {
      items: prepared.items,
      proration_behavior: 'always_invoice',
      proration_date: prorationDate,
      payment_behavior: 'pending_if_incomplete',
    })
  } catch (failure) {
    throw stripeFailure(failure, CHANGE_FAILED)
  }
  const sync = { stripe, service: ctx.service(), now: ctx.deps.now }
  const invoiceId =
    typeof updated.latest_invoice === 'string' ? updated.latest_invoice : updated.latest_invoice?.id
  if (updated.pending_update) {
    if (invoiceId) await syncInvoicePayment(sync, invoiceId)
    throw new HttpError(402, CARD_REFUSED)
  }
  try {
    // Stripe accepted and was paid; the plan's name follows (not allowed beside pending_if_incomplete).
    await stripe.subscriptions.update(subscription.id, {
      metadata: { planType: priced.plan, accounts: String(priced.accounts) },
    })
  } catch (failure) {
    throw stripeFailure(failure, CHANGE_FAILED)
  }
  const synced = await syncSubscription(sync, subscription.id, ctx.caller.id)
  const payment = invoiceId ? await syncInvoicePayment(sync, invoiceId) : null
  return jsonResponse({
    subscription: synced?.row ?? null,
    amountPaid: payment?.invoice.amount_paid ?? 0,
    message: `Your plan now covers ${priced.accounts} account${priced.accounts === 1 ? '' : 's'}.`,
  } satisfies PlanChanged)
}
