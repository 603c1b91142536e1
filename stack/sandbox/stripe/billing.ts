// What Stripe Billing does on its own: completing a checkout (customer, card, subscription, first
// invoice), charging renewals, retrying failed payments, ending trials and cancellations when the
// clock reaches them. Every change emits the events Stripe would send.
import { declineFor, readTestCard, type TestCard } from './cards.ts'
import { StripeApiError } from './errors.ts'
import { newId } from './ids.ts'
import { createInvoice, markPaid } from './invoices.ts'
import {
  addInterval,
  buildCustomer,
  type Invoice,
  type Session,
  type Subscription,
  type SubscriptionItem,
} from './objects.ts'
import type { ItemChange } from './proration.ts'
import type { Card, Store } from './store.ts'
import { changeItems, type PaymentBehavior, type ProrationBehavior } from './subscription-change.ts'
import type { WebhookDispatcher } from './webhooks.ts'

const DAY = 86_400
/** Days after a failed renewal when Stripe's retry schedule tries the card again; then it cancels. */
const RETRY_AFTER_DAYS = [1, 3, 5]

const snapshot = <T>(value: T): T => structuredClone(value)

export class Billing {
  constructor(
    private readonly store: Store,
    private readonly webhooks: WebhookDispatcher,
    private readonly publicUrl: () => string,
  ) {}

  private get state() {
    return this.store.state
  }

  /** The session as a reader sees it now: an open session past expires_at reads as expired. */
  refreshSession(session: Session): Session {
    if (session.status === 'open' && this.store.now(session.customer) >= session.expires_at) {
      session.status = 'expired'
      session.url = null
      this.store.changed()
    }
    return session
  }

  /** The hosted page's "Pay": checks the card, then creates what Stripe creates, in Stripe's order. */
  completeCheckout(
    session: Session,
    input: { email: string; name: string | null; cardNumber: string; expiry: string; cvc: string },
  ): Session {
    this.refreshSession(session)
    if (session.status !== 'open') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `This Checkout Session is ${session.status}.`,
        'checkout_session_not_open',
      )
    }
    const now = this.store.now(session.customer)
    const card = readTestCard(input.cardNumber, input.expiry, input.cvc, now)
    const trialDays = session.subscription_data?.trial_period_days ?? null
    // With a trial nothing is charged today; a card that only fails when charged passes checkout.
    const decline = declineFor(card.behaviour)
    if (decline && (card.behaviour !== 'charge_fails' || !trialDays)) throw decline

    let customerId = session.customer
    if (!customerId) {
      const customer = buildCustomer(now, { email: input.email, name: input.name })
      this.state.customers[customer.id] = customer
      customerId = customer.id
    }
    const customer = this.state.customers[customerId]
    if (!customer) throw new StripeApiError(500, 'api_error', 'Checkout customer vanished')
    const saved: Card = {
      paymentMethod: newId('pm'),
      brand: card.brand,
      last4: card.last4,
      behaviour: card.behaviour,
    }
    this.state.cards[customerId] = saved
    customer.invoice_settings.default_payment_method = saved.paymentMethod

    const subscription = this.createSubscription(session, customerId, saved, now, trialDays)
    session.status = 'complete'
    session.customer = customerId
    session.customer_details = { email: customer.email ?? input.email, name: customer.name ?? input.name }
    session.subscription = subscription.id
    session.payment_status = trialDays ? 'no_payment_required' : 'paid'
    session.url = null
    this.store.changed()

    this.webhooks.emit('customer.subscription.created', subscription, now)
    const invoice = subscription.latest_invoice ? this.state.invoices[subscription.latest_invoice] : undefined
    if (invoice) this.webhooks.emit('invoice.paid', invoice, now)
    this.webhooks.emit('checkout.session.completed', this.publicSession(session), now)
    return session
  }

  /** The session as the API shows it (without the sandbox's remembered subscription_data). */
  publicSession(session: Session): Omit<Session, 'subscription_data'> {
    const { subscription_data: _hidden, ...visible } = session
    return visible
  }

  private createSubscription(
    session: Session,
    customer: string,
    card: Card,
    now: number,
    trialDays: number | null,
  ): Subscription {
    const lineItems = this.state.lineItems[session.id] ?? []
    const first = lineItems[0]?.price
    if (!first?.recurring)
      throw new StripeApiError(500, 'api_error', 'Checkout session has no recurring price')
    const id = newId('sub')
    const periodEnd = trialDays
      ? now + trialDays * DAY
      : addInterval(now, first.recurring.interval, first.recurring.interval_count)
    const items: SubscriptionItem[] = lineItems.map((item) => ({
      id: newId('si', 14),
      object: 'subscription_item',
      created: now,
      current_period_start: now,
      current_period_end: periodEnd,
      metadata: {},
      price: item.price,
      quantity: item.quantity,
      subscription: id,
    }))
    const subscription: Subscription = {
      id,
      object: 'subscription',
      customer,
      status: trialDays ? 'trialing' : 'active',
      items: {
        object: 'list',
        data: items,
        has_more: false,
        total_count: items.length,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      billing_cycle_anchor: periodEnd,
      collection_method: 'charge_automatically',
      created: now,
      start_date: now,
      currency: first.currency,
      default_payment_method: card.paymentMethod,
      description: session.subscription_data?.description ?? null,
      latest_invoice: null,
      metadata: { ...(session.subscription_data?.metadata ?? {}) },
      trial_start: trialDays ? now : null,
      trial_end: trialDays ? periodEnd : null,
      pending_update: null,
      livemode: false,
      test_clock: null,
    }
    this.state.subscriptions[id] = subscription
    // A trial starts with a $0 invoice; without one the first period is charged at once (checked above).
    const invoice = createInvoice(
      this.store,
      this.publicUrl(),
      subscription,
      'subscription_create',
      now,
      now,
      periodEnd,
      trialDays ? 0 : undefined,
    )
    markPaid(invoice, now)
    subscription.latest_invoice = invoice.id
    return subscription
  }

  /** Tries the customer's card for an open invoice; true when paid. */
  private charge(invoice: Invoice, at: number): boolean {
    const card = this.state.cards[invoice.customer]
    if (card && card.behaviour === 'succeeds') {
      markPaid(invoice, at)
      return true
    }
    invoice.attempted = true
    invoice.attempt_count += 1
    return false
  }

  /** Customer's new card from the portal; an unpaid invoice is retried at once, as Stripe does. */
  replaceCard(customerId: string, card: TestCard & { last4: string }): void {
    const saved: Card = {
      paymentMethod: newId('pm'),
      brand: card.brand,
      last4: card.last4,
      behaviour: card.behaviour,
    }
    this.state.cards[customerId] = saved
    const customer = this.state.customers[customerId]
    if (customer) customer.invoice_settings.default_payment_method = saved.paymentMethod
    const now = this.store.now(customerId)
    for (const subscription of Object.values(this.state.subscriptions)) {
      if (subscription.customer !== customerId) continue
      subscription.default_payment_method = saved.paymentMethod
      if (subscription.status === 'past_due') this.retryPayment(subscription, now)
    }
    this.store.changed()
  }

  /** When a subscription next needs Billing to act, and what it will do then. */
  private nextAction(subscription: Subscription): { at: number; run: (at: number) => void } | null {
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return null
    const periodEnd = subscription.items.data[0]?.current_period_end
    if (periodEnd === undefined) return null
    if (subscription.cancel_at !== null) {
      const at = subscription.cancel_at
      return { at, run: () => this.endSubscription(subscription, at, 'cancellation_requested') }
    }
    if (subscription.status === 'past_due') {
      const invoice = subscription.latest_invoice
        ? this.state.invoices[subscription.latest_invoice]
        : undefined
      if (invoice?.next_payment_attempt)
        return { at: invoice.next_payment_attempt, run: (at) => this.retryPayment(subscription, at) }
    }
    return { at: periodEnd, run: (at) => this.renew(subscription, at) }
  }

  /**
   * Runs everything that falls due up to each customer's current time, earliest first, so a long
   * jump (a year) produces every renewal in between. Only `customer`'s subscriptions when given.
   */
  runDue(customer?: string): number {
    let steps = 0
    for (; steps < 10_000; steps++) {
      let next: { at: number; run: (at: number) => void } | null = null
      for (const subscription of Object.values(this.state.subscriptions)) {
        if (customer && subscription.customer !== customer) continue
        const action = this.nextAction(subscription)
        if (action && action.at <= this.store.now(subscription.customer) && (!next || action.at < next.at))
          next = action
      }
      if (!next) break
      next.run(next.at)
      this.store.changed()
    }
    return steps
  }

  private renew(subscription: Subscription, at: number): void {
    const before = snapshot(subscription)
    const price = subscription.items.data[0]?.price
    if (!price?.recurring) return
    const periodEnd = addInterval(at, price.recurring.interval, price.recurring.interval_count)
    for (const item of subscription.items.data) {
      item.current_period_start = at
      item.current_period_end = periodEnd
    }
    subscription.billing_cycle_anchor = subscription.trial_end === at ? at : subscription.billing_cycle_anchor
    const invoice = createInvoice(
      this.store,
      this.publicUrl(),
      subscription,
      'subscription_cycle',
      at,
      at,
      periodEnd,
    )
    subscription.latest_invoice = invoice.id
    if (this.charge(invoice, at)) {
      subscription.status = 'active'
      this.webhooks.emit('invoice.paid', invoice, at)
    } else {
      subscription.status = 'past_due'
      invoice.next_payment_attempt = at + (RETRY_AFTER_DAYS[0] ?? 1) * DAY
      this.webhooks.emit('invoice.payment_failed', invoice, at)
    }
    this.emitUpdated(subscription, before, at)
  }

  private retryPayment(subscription: Subscription, at: number): void {
    const invoice = subscription.latest_invoice ? this.state.invoices[subscription.latest_invoice] : undefined
    if (invoice?.status !== 'open') return
    const before = snapshot(subscription)
    if (this.charge(invoice, at)) {
      subscription.status = 'active'
      this.webhooks.emit('invoice.paid', invoice, at)
      this.emitUpdated(subscription, before, at)
      return
    }
    const retries = invoice.attempt_count - 1
    const nextDelay = RETRY_AFTER_DAYS[retries]
    if (nextDelay === undefined) {
      invoice.next_payment_attempt = null
      this.webhooks.emit('invoice.payment_failed', invoice, at)
      this.endSubscription(subscription, at, 'payment_failed')
      return
    }
    invoice.next_payment_attempt = invoice.created + nextDelay * DAY
    this.webhooks.emit('invoice.payment_failed', invoice, at)
  }

  /** Ends a subscription now (API cancel) or when its cancel_at comes. */
  endSubscription(
    subscription: Subscription,
    at: number,
    reason: 'cancellation_requested' | 'payment_failed',
  ): void {
    subscription.status = 'canceled'
    subscription.ended_at = at
    subscription.canceled_at = subscription.canceled_at ?? at
    subscription.cancel_at = subscription.cancel_at_period_end ? subscription.cancel_at : null
    subscription.cancellation_details = { ...subscription.cancellation_details, reason }
    this.store.changed()
    this.webhooks.emit('customer.subscription.deleted', subscription, at)
  }

  /** subscriptions.update: items (prices, quantities, prorations), `cancel_at_period_end` and metadata. */
  updateSubscription(
    subscription: Subscription,
    changes: {
      cancel_at_period_end?: boolean
      metadata?: Record<string, string>
      description?: string
      items?: ItemChange[]
      proration_behavior?: ProrationBehavior
      proration_date?: number
      payment_behavior?: PaymentBehavior
    },
  ): Subscription {
    const at = this.store.now(subscription.customer)
    const before = snapshot(subscription)
    if (
      changes.payment_behavior === 'pending_if_incomplete' &&
      (changes.metadata || changes.cancel_at_period_end !== undefined || changes.description !== undefined)
    ) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'When payment_behavior is pending_if_incomplete, only items, proration_behavior and proration_date can be updated.',
        undefined,
        'payment_behavior',
      )
    }
    if (changes.items) {
      const { items, proration_behavior, proration_date, payment_behavior } = changes
      changeItems(this.store, this.webhooks, this.publicUrl(), subscription, {
        items,
        ...(proration_behavior ? { proration_behavior } : {}),
        ...(proration_date !== undefined ? { proration_date } : {}),
        ...(payment_behavior ? { payment_behavior } : {}),
      })
    }
    if (subscription.status === 'canceled' && changes.cancel_at_period_end !== undefined) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'A canceled subscription can only update its cancellation_details and metadata.',
        undefined,
        'cancel_at_period_end',
      )
    }
    if (changes.cancel_at_period_end === true && !subscription.cancel_at_period_end) {
      subscription.cancel_at_period_end = true
      subscription.cancel_at = subscription.items.data[0]?.current_period_end ?? at
      subscription.canceled_at = at
      subscription.cancellation_details = {
        ...subscription.cancellation_details,
        reason: 'cancellation_requested',
      }
    } else if (changes.cancel_at_period_end === false && subscription.cancel_at_period_end) {
      subscription.cancel_at_period_end = false
      subscription.cancel_at = null
      subscription.canceled_at = null
      subscription.cancellation_details = { comment: null, feedback: null, reason: null }
    }
    if (changes.metadata) {
      for (const [key, value] of Object.entries(changes.metadata)) {
        if (value === '') delete subscription.metadata[key]
        else subscription.metadata[key] = value
      }
    }
    if (changes.description !== undefined) subscription.description = changes.description || null
    this.store.changed()
    this.emitUpdated(subscription, before, at)
    return subscription
  }

  /** customer.subscription.updated with previous_attributes holding the old value of each changed top-level field. */
  private emitUpdated(subscription: Subscription, before: Subscription, at: number): void {
    const previous: Record<string, unknown> = {}
    for (const key of Object.keys(subscription) as Array<keyof Subscription>) {
      if (JSON.stringify(subscription[key]) !== JSON.stringify(before[key])) previous[key] = before[key]
    }
    if (Object.keys(previous).length > 0)
      this.webhooks.emit('customer.subscription.updated', subscription, at, previous)
  }
}
