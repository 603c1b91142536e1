// Invoices for a subscription's period: one line per item, numbered per customer, with links to
// the hosted page and PDF. A trial's first invoice is for $0.

import { newId } from './ids.ts'
import {
  describeInterval,
  formatAmount,
  type Invoice,
  type InvoiceLine,
  type Price,
  type Subscription,
} from './objects.ts'
import type { Store } from './store.ts'

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
  const lines: InvoiceLine[] = subscription.items.data.map((item) => {
    const amount = amountOverride === 0 ? 0 : item.price.unit_amount * item.quantity
    const product = store.state.products[item.price.product]
    const trial = amountOverride === 0 ? 'Trial period for ' : ''
    return invoiceLine(subscription, item, {
      amount,
      description: `${trial}${item.quantity} × ${product?.name ?? 'Subscription'} (at ${formatAmount(item.price.unit_amount, item.price.currency)} / ${describeInterval(item.price)})`,
      period: { start: periodStart, end: periodEnd },
      proration: false,
      unitAmountDecimal: amountOverride === 0 ? '0' : item.price.unit_amount_decimal,
    })
  })
  const invoice = assembleInvoice(store, publicUrl, subscription, reason, at, lines, newId('in'))
  invoice.period_start = periodStart
  invoice.period_end = periodEnd
  store.state.invoices[invoice.id] = invoice
  return invoice
}

/** One invoice line for a subscription item (a period's charge, or a proration when `proration`). */
export function invoiceLine(
  subscription: Subscription,
  item: { id: string; price: Price; quantity: number },
  line: {
    amount: number
    description: string
    period: { start: number; end: number }
    proration: boolean
    unitAmountDecimal: string
  },
): InvoiceLine {
  return {
    id: newId('il'),
    object: 'line_item',
    amount: line.amount,
    currency: item.price.currency,
    description: line.description,
    period: line.period,
    quantity: item.quantity,
    pricing: {
      type: 'price_details',
      price_details: { price: item.price.id, product: item.price.product },
      unit_amount_decimal: line.unitAmountDecimal,
    },
    parent: {
      type: 'subscription_item_details',
      subscription_item_details: {
        subscription: subscription.id,
        subscription_item: item.id,
        proration: line.proration,
      },
    },
    metadata: {},
  }
}

/**
 * An open invoice of `lines` (not stored). A negative total is due as $0: Stripe credits the rest to
 * the customer's balance when the invoice is finalized. `id` null numbers nothing (a preview).
 */
export function assembleInvoice(
  store: Store,
  publicUrl: string,
  subscription: Subscription,
  reason: Invoice['billing_reason'],
  at: number,
  lines: InvoiceLine[],
  id: string,
  preview = false,
): Invoice {
  const customer = store.state.customers[subscription.customer]
  const total = lines.reduce((sum, line) => sum + line.amount, 0)
  const due = Math.max(0, total)
  const periods = lines.map((line) => line.period)
  return {
    id,
    object: 'invoice',
    customer: subscription.customer,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    status: preview ? 'draft' : 'open',
    billing_reason: reason,
    collection_method: 'charge_automatically',
    currency: subscription.currency,
    amount_due: due,
    amount_paid: 0,
    amount_remaining: due,
    subtotal: total,
    total,
    attempt_count: 0,
    attempted: false,
    next_payment_attempt: null,
    number: preview ? null : store.nextInvoiceNumber(subscription.customer),
    description: null,
    hosted_invoice_url: preview ? null : `${publicUrl}/i/${id}`,
    invoice_pdf: preview ? null : `${publicUrl}/i/${id}/pdf`,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
    },
    period_start: Math.min(at, ...periods.map((p) => p.start)),
    period_end: Math.max(at, ...periods.map((p) => p.end)),
    status_transitions: {
      finalized_at: preview ? null : at,
      paid_at: null,
      marked_uncollectible_at: null,
      voided_at: null,
    },
    metadata: {},
    created: at,
    livemode: false,
  }
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

export interface ImportedInvoice {
  id: string
  customerEmail: string
  amount: number
  currency: string
  paid: boolean
  description: string
  created: number
}

/**
 * An invoice that exists "in Stripe" before the sandbox first ran: the demo seed's payment
 * history (supabase/seed.sql) names invoices the sandbox never issued, so `npm start` imports
 * them and the Billing page's invoice buttons open real hosted pages. Same id twice replaces.
 */
export function importInvoice(store: Store, publicUrl: string, input: ImportedInvoice): Invoice {
  const customer = `cus_import_${input.customerEmail.replace(/[^A-Za-z0-9]/g, '_').slice(0, 40)}`
  const invoice: Invoice = {
    id: input.id,
    object: 'invoice',
    customer,
    customer_email: input.customerEmail,
    customer_name: null,
    status: input.paid ? 'paid' : 'open',
    billing_reason: 'subscription_cycle',
    collection_method: 'charge_automatically',
    currency: input.currency,
    amount_due: input.amount,
    amount_paid: input.paid ? input.amount : 0,
    amount_remaining: input.paid ? 0 : input.amount,
    subtotal: input.amount,
    total: input.amount,
    attempt_count: input.paid ? 1 : 0,
    attempted: input.paid,
    next_payment_attempt: null,
    number: store.nextInvoiceNumber(customer),
    description: input.description,
    hosted_invoice_url: `${publicUrl}/i/${input.id}`,
    invoice_pdf: `${publicUrl}/i/${input.id}/pdf`,
    lines: {
      object: 'list',
      data: [
        {
          id: newId('il'),
          object: 'line_item',
          amount: input.amount,
          currency: input.currency,
          description: input.description,
          period: { start: input.created, end: input.created },
          quantity: 1,
          pricing: {
            type: 'price_details',
            price_details: { price: 'price_imported', product: 'prod_imported' },
            unit_amount_decimal: String(input.amount),
          },
          parent: {
            type: 'subscription_item_details',
            subscription_item_details: {
              subscription: 'sub_imported',
              subscription_item: 'si_imported',
              proration: false,
            },
          },
          metadata: {},
        },
      ],
      has_more: false,
      url: `/v1/invoices/${input.id}/lines`,
    },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: 'sub_imported', metadata: {} },
    },
    period_start: input.created,
    period_end: input.created,
    status_transitions: {
      finalized_at: input.created,
      paid_at: input.paid ? input.created : null,
      marked_uncollectible_at: null,
      voided_at: null,
    },
    metadata: { imported: 'true' },
    created: input.created,
    livemode: false,
  }
  store.state.invoices[input.id] = invoice
  store.changed()
  return invoice
}
