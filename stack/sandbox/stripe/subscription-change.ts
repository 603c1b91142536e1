// subscriptions.update with `items` and invoices/create_preview, as Stripe Billing does them:
// always_invoice bills the proration at once and charges the card on file; with
// payment_behavior=pending_if_incomplete a refused charge leaves the items unchanged and the
// change waiting in `pending_update` (so nothing is granted that was not paid for); none changes
// the items without billing. create_prorations would keep the lines for the next renewal, which
// the sandbox does not do: it answers 400 and says so.
import { declineFor } from './cards.ts'
import { invalidRequest } from './errors.ts'
import { newId } from './ids.ts'
import { assembleInvoice, markPaid } from './invoices.ts'
import { addInterval, type Invoice, type Subscription } from './objects.ts'
import { type ItemChange, planItems, prorationLines, renewalLines } from './proration.ts'
import type { Store } from './store.ts'
import type { WebhookDispatcher } from './webhooks.ts'

export type ProrationBehavior = 'create_prorations' | 'none' | 'always_invoice'
export type PaymentBehavior =
  | 'allow_incomplete'
  | 'default_incomplete'
  | 'error_if_incomplete'
  | 'pending_if_incomplete'

export interface ItemsUpdate {
  items: ItemChange[]
  proration_behavior?: ProrationBehavior
  proration_date?: number
  payment_behavior?: PaymentBehavior
}

/** How long Stripe keeps a pending update waiting for its invoice to be paid. */
const PENDING_UPDATE_SECONDS = 23 * 3600

const nextPeriodEnd = (
  price: { recurring: { interval: 'day' | 'week' | 'month' | 'year'; interval_count: number } | null },
  from: number,
) => (price.recurring ? addInterval(from, price.recurring.interval, price.recurring.interval_count) : from)

/** Why the card on file cannot pay now, or null when it can. */
function chargeRefusal(store: Store, customer: string) {
  const card = store.state.cards[customer]
  if (!card)
    return invalidRequest(
      'This customer has no attached payment source or default payment method.',
      'customer',
    )
  return declineFor(card.behaviour)
}

/** The invoice Stripe would issue for this change: the prorations alone (always_invoice), else the next renewal with them. */
export function previewChange(
  store: Store,
  publicUrl: string,
  subscription: Subscription,
  change: Omit<ItemsUpdate, 'payment_behavior'>,
): Invoice {
  const at = store.now(subscription.customer)
  const planned = planItems(store, subscription, change.items, at, false)
  const behavior = change.proration_behavior ?? 'create_prorations'
  const prorations =
    behavior === 'none' ? [] : prorationLines(store, subscription, planned, change.proration_date ?? at)
  const lines =
    behavior === 'always_invoice'
      ? prorations
      : [...prorations, ...renewalLines(store, subscription, planned, nextPeriodEnd)]
  const reason = behavior === 'always_invoice' ? 'subscription_update' : 'subscription_cycle'
  return assembleInvoice(store, publicUrl, subscription, reason, at, lines, `upcoming_${newId('in')}`, true)
}

/**
 * Applies new prices and quantities. Returns the invoice it issued (always_invoice), or null.
 * The caller snapshots the subscription before and emits customer.subscription.updated after.
 */
export function changeItems(
  store: Store,
  webhooks: WebhookDispatcher,
  publicUrl: string,
  subscription: Subscription,
  change: ItemsUpdate,
): Invoice | null {
  const behavior = change.proration_behavior ?? 'create_prorations'
  if (behavior === 'create_prorations') {
    throw invalidRequest(
      'The sandbox bills prorations at once or not at all: pass proration_behavior=always_invoice or none.',
      'proration_behavior',
    )
  }
  if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
    throw invalidRequest(
      'A canceled subscription can only update its cancellation_details and metadata.',
      'items',
    )
  }
  const at = store.now(subscription.customer)
  const planned = planItems(store, subscription, change.items, at, true)
  const apply = () => {
    for (const { item, price, quantity } of planned) {
      item.price = price
      item.quantity = quantity
    }
    subscription.pending_update = null
  }
  if (behavior === 'none') {
    apply()
    store.changed()
    return null
  }

  const lines = prorationLines(store, subscription, planned, change.proration_date ?? at)
  const invoice = assembleInvoice(
    store,
    publicUrl,
    subscription,
    'subscription_update',
    at,
    lines,
    newId('in'),
  )
  store.state.invoices[invoice.id] = invoice
  subscription.latest_invoice = invoice.id
  const customer = store.state.customers[subscription.customer]
  if (invoice.total < 0 && customer) customer.balance += invoice.total
  const decline = invoice.amount_due > 0 ? chargeRefusal(store, subscription.customer) : null
  if (!decline) {
    markPaid(invoice, at)
    apply()
    store.changed()
    webhooks.emit('invoice.paid', invoice, at)
    return invoice
  }

  invoice.attempted = true
  invoice.attempt_count += 1
  const payment = change.payment_behavior ?? 'allow_incomplete'
  if (payment === 'error_if_incomplete') {
    invoice.status = 'void'
    invoice.status_transitions.voided_at = at
    store.changed()
    throw decline
  }
  if (payment === 'pending_if_incomplete') {
    subscription.pending_update = {
      expires_at: at + PENDING_UPDATE_SECONDS,
      subscription_items: planned.map((p) => ({ id: p.item.id, price: p.price.id, quantity: p.quantity })),
    }
  } else {
    apply()
    subscription.status = 'past_due'
  }
  store.changed()
  webhooks.emit('invoice.payment_failed', invoice, at)
  return invoice
}
