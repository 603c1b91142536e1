// Changing a subscription's items as Stripe does: each item's new price and quantity, and the
// proration for what is left of the current period (a credit for the unused time on the old item,
// a charge for the remaining time on the new one). invoices/create_preview shows these lines;
// subscriptions.update bills them (proration_behavior=always_invoice).
import { invalidRequest, StripeApiError } from './errors.ts'
import { invoiceLine } from './invoices.ts'
import {
  buildPrice,
  type InvoiceLine,
  type Price,
  type Subscription,
  type SubscriptionItem,
} from './objects.ts'
import type { Store } from './store.ts'

export interface ItemChange {
  id?: string
  quantity?: number
  price?: string
  price_data?: {
    currency: string
    unit_amount: number
    product: string
    recurring: { interval: 'day' | 'week' | 'month' | 'year'; interval_count?: number }
  }
}

export interface PlannedItem {
  item: SubscriptionItem
  price: Price
  quantity: number
}

/**
 * What each item becomes. Inline `price_data` makes a new price (stored only when `persist`, as a
 * preview creates nothing). Items not named stay as they are.
 */
export function planItems(
  store: Store,
  subscription: Subscription,
  changes: ItemChange[],
  at: number,
  persist: boolean,
): PlannedItem[] {
  const planned = subscription.items.data.map((item) => ({
    item,
    price: item.price,
    quantity: item.quantity,
  }))
  changes.forEach((change, index) => {
    if (!change.id) {
      throw invalidRequest(
        'The sandbox changes existing subscription items only: pass items[][id].',
        `items[${index}][id]`,
        'parameter_missing',
      )
    }
    const target = planned.find((p) => p.item.id === change.id)
    if (!target) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `No such subscription item: '${change.id}'`,
        'resource_missing',
        `items[${index}][id]`,
      )
    }
    if (change.price) {
      const price = store.state.prices[change.price]
      if (!price)
        throw invalidRequest(`No such price: '${change.price}'`, `items[${index}][price]`, 'resource_missing')
      target.price = price
    } else if (change.price_data) {
      if (!store.state.products[change.price_data.product]) {
        throw invalidRequest(
          `No such product: '${change.price_data.product}'`,
          `items[${index}][price_data][product]`,
          'resource_missing',
        )
      }
      const price = buildPrice(at, change.price_data)
      if (persist) store.state.prices[price.id] = price
      target.price = price
    }
    const old = target.item.price.recurring
    const next = target.price.recurring
    if (!next || next.interval !== old?.interval || next.interval_count !== old.interval_count) {
      throw invalidRequest(
        'The sandbox changes prices within the same billing interval only.',
        `items[${index}][price_data][recurring]`,
      )
    }
    if (change.quantity !== undefined) target.quantity = change.quantity
  })
  return planned
}

const day = (seconds: number) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(seconds * 1000)

/**
 * The proration lines of a change made at `prorationDate`: for every changed item, minus the unused
 * share of the old price × quantity and plus the remaining share of the new one, each rounded to
 * the cent. A trial bills nothing, so its prorations are $0.
 */
export function prorationLines(
  store: Store,
  subscription: Subscription,
  planned: PlannedItem[],
  prorationDate: number,
): InvoiceLine[] {
  const lines: InvoiceLine[] = []
  for (const { item, price, quantity } of planned) {
    if (price.id === item.price.id && quantity === item.quantity) continue
    const start = item.current_period_start
    const end = item.current_period_end
    if (prorationDate < start || prorationDate >= end) {
      throw invalidRequest(
        'proration_date must be within the current billing period of the subscription.',
        'proration_date',
      )
    }
    const share = (end - prorationDate) / (end - start)
    const free = subscription.status === 'trialing'
    const name = (p: Price) => store.state.products[p.product]?.name ?? 'Subscription'
    const period = { start: prorationDate, end }
    lines.push(
      invoiceLine(subscription, item, {
        amount: free ? 0 : -Math.round(item.price.unit_amount * item.quantity * share),
        description: `Unused time on ${item.quantity} × ${name(item.price)} after ${day(prorationDate)}`,
        period,
        proration: true,
        unitAmountDecimal: item.price.unit_amount_decimal,
      }),
      invoiceLine(
        subscription,
        { id: item.id, price, quantity },
        {
          amount: free ? 0 : Math.round(price.unit_amount * quantity * share),
          description: `Remaining time on ${quantity} × ${name(price)} after ${day(prorationDate)}`,
          period,
          proration: true,
          unitAmountDecimal: price.unit_amount_decimal,
        },
      ),
    )
  }
  return lines
}

/** The lines of the renewal after the change: each item's new price × quantity for the next period. */
export function renewalLines(
  store: Store,
  subscription: Subscription,
  planned: PlannedItem[],
  nextPeriod: (price: Price, from: number) => number,
): InvoiceLine[] {
  return planned
    .filter((p) => p.quantity > 0)
    .map(({ item, price, quantity }) =>
      invoiceLine(
        subscription,
        { id: item.id, price, quantity },
        {
          amount: price.unit_amount * quantity,
          description: `${quantity} × ${store.state.products[price.product]?.name ?? 'Subscription'}`,
          period: { start: item.current_period_end, end: nextPeriod(price, item.current_period_end) },
          proration: false,
          unitAmountDecimal: price.unit_amount_decimal,
        },
      ),
    )
}
