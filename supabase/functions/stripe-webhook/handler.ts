// Stripe's webhook: the signature is checked on the raw body, only the events the product uses are
// handled (others get 200 and are ignored), and each event id is claimed in stripe_events before it
// is handled, so a replay or a second delivery changes nothing. Handlers never trust the event's
// copy of an object: they re-fetch it (stripe-sync.ts), so late or reordered events end in Stripe's
// current state. A handler that fails releases its claim and answers 500, and Stripe retries.
import { type SupabaseClient, serviceClient } from '../_shared/clients.ts'
import { DatabaseError } from '../_shared/db-errors.ts'
import { denoEnv, type Env } from '../_shared/env.ts'
import { badRequest, HttpError, handleRequest, jsonResponse } from '../_shared/errors.ts'
import { createStripeClient, Stripe, verifyStripeEvent } from '../_shared/stripe.ts'
import { isUuid, type SyncDeps, syncInvoicePayment, syncSubscription } from '../_shared/stripe-sync.ts'
import { readText } from '../_shared/validation.ts'
import {
  cancellationScheduled,
  notify,
  paymentNotice,
  subscriptionEnded,
  subscriptionResumed,
  subscriptionStarted,
} from './notifications.ts'

/** Stripe's events are small; this leaves room for large invoices without reading without end. */
export const MAX_EVENT_BYTES = 1024 * 1024

export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const

type HandledEvent = (typeof HANDLED_EVENTS)[number]
type Outcome = { handled: true; userId: string | null } | { handled: false; reason: string }

export interface WebhookDeps {
  env: Env
  stripe: Stripe
  service: SupabaseClient
  now?: () => Date
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null)

async function onCheckoutCompleted(
  deps: SyncDeps,
  event: Stripe.CheckoutSessionCompletedEvent,
): Promise<Outcome> {
  const session = event.data.object
  const subscriptionId = idOf(session.subscription)
  if (session.mode !== 'subscription' || !subscriptionId)
    return { handled: false, reason: 'not a subscription' }
  const hint = session.metadata?.userId ?? session.client_reference_id
  const synced = await syncSubscription(deps, subscriptionId, isUuid(hint) ? hint : null)
  if (!synced) return { handled: false, reason: 'no customer of ours' }
  await notify(deps.service, synced.row, subscriptionStarted(synced.row), {
    subscriptionId: synced.row.id,
    checkoutSessionId: session.id,
  })
  return { handled: true, userId: synced.row.user_id }
}

async function onSubscriptionChange(
  deps: SyncDeps,
  event:
    | Stripe.CustomerSubscriptionCreatedEvent
    | Stripe.CustomerSubscriptionUpdatedEvent
    | Stripe.CustomerSubscriptionDeletedEvent,
): Promise<Outcome> {
  const synced = await syncSubscription(deps, event.data.object.id)
  if (!synced) return { handled: false, reason: 'no customer of ours' }
  const { row } = synced
  const meta = { subscriptionId: row.id }
  if (event.type === 'customer.subscription.deleted') {
    await notify(deps.service, row, subscriptionEnded(row), meta)
  } else if (event.type === 'customer.subscription.updated') {
    // What changed in this event, told once; the stored row follows Stripe's current state anyway.
    const previous = event.data.previous_attributes as { cancel_at_period_end?: boolean } | undefined
    const nowCancelling = event.data.object.cancel_at_period_end
    if (previous && 'cancel_at_period_end' in previous && previous.cancel_at_period_end !== nowCancelling) {
      await notify(
        deps.service,
        row,
        nowCancelling ? cancellationScheduled(row) : subscriptionResumed(row),
        meta,
      )
    }
  }
  return { handled: true, userId: row.user_id }
}

async function onInvoice(
  deps: SyncDeps,
  event: Stripe.InvoicePaidEvent | Stripe.InvoicePaymentFailedEvent,
): Promise<Outcome> {
  const invoiceId = event.data.object.id
  if (!invoiceId) return { handled: false, reason: 'invoice without id' }
  const synced = await syncInvoicePayment(deps, invoiceId)
  if (!synced?.subscription) return { handled: false, reason: 'no customer of ours' }
  const { payment, subscription } = synced
  // A notice only while the event still tells the truth: a failure delivered after the retry
  // succeeded says nothing new (the payment row already shows the invoice's current state).
  const stillTrue = payment && (event.type === 'invoice.paid') === (payment.status === 'succeeded')
  if (payment && stillTrue) {
    const notice = paymentNotice(payment, subscription.row)
    if (notice) {
      await notify(deps.service, subscription.row, notice, {
        paymentId: payment.id,
        invoiceId,
      })
    }
  }
  return { handled: true, userId: subscription.row.user_id }
}

function dispatch(deps: SyncDeps, event: Stripe.Event): Promise<Outcome> {
  switch (event.type) {
    case 'checkout.session.completed':
      return onCheckoutCompleted(deps, event)
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return onSubscriptionChange(deps, event)
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return onInvoice(deps, event)
    default:
      return Promise.resolve({ handled: false, reason: 'event type not handled' })
  }
}

/** True when this call claimed the event; false when it was handled (or is being handled) before. */
async function claimEvent(service: SupabaseClient, event: Stripe.Event): Promise<boolean> {
  const { error } = await service.from('stripe_events').insert({ id: event.id, type: event.type })
  if (!error) return true
  if (error.code === '23505') return false
  throw new DatabaseError(error)
}

async function releaseEvent(service: SupabaseClient, eventId: string): Promise<void> {
  const { error } = await service.from('stripe_events').delete().eq('id', eventId)
  if (error) console.error('Could not release Stripe event', eventId, error)
}

export async function handleStripeWebhook(req: Request, deps: WebhookDeps): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Stripe webhooks are POST requests', undefined, { Allow: 'POST, OPTIONS' })
  }
  const raw = await readText(req, { maxBytes: MAX_EVENT_BYTES })
  const event = await verifyStripeEvent(
    deps.stripe,
    raw,
    req.headers.get('Stripe-Signature'),
    deps.env,
  ).catch((error) => {
    // A correctly signed body that is not an event: nothing Stripe sends, and nothing to retry.
    if (error instanceof SyntaxError) throw badRequest('Webhook body must be a JSON event')
    throw error
  })
  if (typeof event?.id !== 'string' || typeof event.type !== 'string')
    throw badRequest('Webhook body must be a JSON event')
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) {
    return jsonResponse({ received: true, ignored: true, reason: 'event type not handled' })
  }
  if (!(await claimEvent(deps.service, event))) {
    return jsonResponse({ received: true, duplicate: true })
  }
  let outcome: Outcome
  try {
    outcome = await dispatch({ stripe: deps.stripe, service: deps.service, now: deps.now }, event)
  } catch (error) {
    // Stripe no longer has the object (deleted, or another account's): retrying cannot help.
    if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) {
      return jsonResponse({ received: true, ignored: true, reason: 'object not found at Stripe' })
    }
    await releaseEvent(deps.service, event.id)
    throw error
  }
  if (!outcome.handled) return jsonResponse({ received: true, ignored: true, reason: outcome.reason })
  return jsonResponse({ received: true, type: event.type as HandledEvent })
}

export function createWebhookHandler(env: Env = denoEnv): (req: Request) => Promise<Response> {
  let deps: WebhookDeps | undefined
  return handleRequest((req) => {
    deps ??= { env, stripe: createStripeClient(env), service: serviceClient(env) }
    return handleStripeWebhook(req, deps)
  })
}
