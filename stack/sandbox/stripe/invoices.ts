// Invoices for a subscription's period: one line per item, numbered per customer, with links to
// the hosted page and PDF. A trial's first invoice is for $0.
import {
  describeInterval,
  formatAmount,
  type Invoice,
  type InvoiceLine,
  type Subscription,
} from './objects.ts'
import { newId, type Store } from './store.ts'

export function createInvoice(
  store: Store,
  publicUrl: string,
  subscription: Subscription,
  reason: Invoice['billing_reason'],
  at: number,
  periodStart: number,
  periodEnd: number,
  amountOverride?: number,
): Invoice {
  const customer = store.state.customers[subscription.customer]
  const id = newId('in')
  const lines: InvoiceLine[] = subscription.items.data.map((item) => {
    const amount = amountOverride === 0 ? 0 : item.price.unit_amount * item.quantity
    const product = store.state.products[item.price.product]
    const trial = amountOverride === 0 ? 'Trial period for ' : ''
    return {
      id: newId('il'),
      object: 'line_item',
      amount,
      currency: item.price.currency,
      description: `${trial}${item.quantity} × ${product?.name ?? 'Subscription'} (at ${formatAmount(item.price.unit_amount, item.price.currency)} / ${describeInterval(item.price)})`,
      period: { start: periodStart, end: periodEnd },
      quantity: item.quantity,
      pricing: {
        type: 'price_details',
        price_details: { price: item.price.id, product: item.price.product },
        unit_amount_decimal: amountOverride === 0 ? '0' : item.price.unit_amount_decimal,
      },
      parent: {
        type: 'subscription_item_details',
        subscription_item_details: {
          subscription: subscription.id,
          subscription_item: item.id,
          proration: false,
        },
      },
      metadata: {},
    }
  })
  const total = lines.reduce((sum, line) => sum + line.amount, 0)
  const invoice: Invoice = {
    id,
    object: 'invoice',
    customer: subscription.customer,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    status: 'open',
    billing_reason: reason,
    collection_method: 'charge_automatically',
    currency: subscription.currency,
    amount_due: total,
    amount_paid: 0,
    amount_remaining: total,
    subtotal: total,
    total,
    attempt_count: 0,
    attempted: false,
    next_payment_attempt: null,
    number: store.nextInvoiceNumber(subscription.customer),
    description: null,
    hosted_invoice_url: `${publicUrl}/i/${id}`,
    invoice_pdf: `${publicUrl}/i/${id}/pdf`,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
    },
    period_start: periodStart,
    period_end: periodEnd,
    status_transitions: { finalized_at: at, paid_at: null, marked_uncollectible_at: null, voided_at: null },
    metadata: {},
    created: at,
    livemode: false,
  }
  store.state.invoices[id] = invoice
  return invoice
}

export function markPaid(invoice: Invoice, at: number): void {
  invoice.status = 'paid'
  invoice.amount_paid = invoice.amount_due
  invoice.amount_remaining = 0
  invoice.attempted = true
  invoice.attempt_count += invoice.amount_due > 0 ? 1 : 0
  invoice.next_payment_attempt = null
  invoice.status_transitions.paid_at = at
}
