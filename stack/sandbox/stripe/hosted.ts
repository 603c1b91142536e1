// The browser-facing routes: the hosted checkout page, the billing portal and hosted invoices.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { CardError, readTestCard } from './cards.ts'
import type { ApiContext } from './context.ts'
import { StripeApiError } from './errors.ts'
import { readBody, redirect, send, sendHtml } from './http.ts'
import { type CheckoutForm, checkoutPage, invoicePage, messagePage, portalPage } from './pages.ts'
import { invoicePdf } from './pdf.ts'

const field = (form: URLSearchParams, name: string) => (form.get(name) ?? '').slice(0, 200)

/** success_url with Stripe's `{CHECKOUT_SESSION_ID}` template variable filled in. */
export function successRedirect(successUrl: string, sessionId: string): string {
  return successUrl.replaceAll('{CHECKOUT_SESSION_ID}', sessionId)
}

async function checkout(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const stored = ctx.store.state.checkoutSessions[id]
  if (!stored)
    return sendHtml(
      res,
      404,
      messagePage('Something went wrong', 'The page you were looking for could not be found.'),
    )
  const session = ctx.billing.refreshSession(stored)
  const items = ctx.store.state.lineItems[id] ?? []
  if (session.status === 'complete') {
    return sendHtml(
      res,
      200,
      messagePage('Already paid', 'This checkout session is complete.', {
        href: successRedirect(session.success_url, id),
        text: 'Continue',
      }),
    )
  }
  if (session.status === 'expired') {
    const back = session.cancel_url ? { href: session.cancel_url, text: 'Go back' } : undefined
    return sendHtml(
      res,
      410,
      messagePage('This checkout session has expired', 'Start checkout again from the site.', back),
    )
  }
  if (req.method === 'GET') return sendHtml(res, 200, checkoutPage(session, items, {}))
  const form = new URLSearchParams(await readBody(req, 16 * 1024))
  const input: CheckoutForm = {
    email: session.customer_email ?? field(form, 'email'),
    name: field(form, 'name'),
    card: field(form, 'card'),
    expiry: field(form, 'expiry'),
    cvc: field(form, 'cvc'),
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) {
    return sendHtml(res, 400, checkoutPage(session, items, input, 'Your email address is incomplete.'))
  }
  try {
    ctx.billing.completeCheckout(session, {
      email: input.email,
      name: input.name || null,
      cardNumber: input.card,
      expiry: input.expiry,
      cvc: input.cvc,
    })
  } catch (error) {
    if (error instanceof CardError)
      return sendHtml(res, 402, checkoutPage(session, items, input, error.message))
    throw error
  }
  redirect(res, successRedirect(session.success_url, id))
}

const PORTAL_NOTICES: Record<string, string> = {
  canceled: 'Your plan will be canceled at the end of the billing period.',
  renewed: 'Your plan will renew.',
  card: 'Payment method updated.',
}

async function portal(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string[],
  query: URLSearchParams,
): Promise<void> {
  const [portalId = '', action, subscriptionId] = rest
  const portalSession = ctx.store.state.portalSessions[portalId]
  if (!portalSession)
    return sendHtml(res, 404, messagePage('Something went wrong', 'This billing portal link is not valid.'))
  const customerId = portalSession.customer
  const customer = ctx.store.state.customers[customerId]
  const notice = PORTAL_NOTICES[query.get('notice') ?? '']
  let error: string | undefined
  const back = (code: string) => redirect(res, `/p/session/${encodeURIComponent(portalId)}?notice=${code}`)
  if (req.method === 'POST') {
    const form = new URLSearchParams(await readBody(req, 16 * 1024))
    if (action === 'subscriptions' && subscriptionId) {
      const subscription = ctx.store.state.subscriptions[subscriptionId]
      if (!subscription || subscription.customer !== customerId) {
        return sendHtml(res, 404, messagePage('Something went wrong', 'No such subscription.'))
      }
      const cancel = form.get('cancel_at_period_end') === 'true'
      ctx.billing.updateSubscription(subscription, { cancel_at_period_end: cancel })
      return back(cancel ? 'canceled' : 'renewed')
    } else if (action === 'card') {
      try {
        const card = readTestCard(
          field(form, 'card'),
          field(form, 'expiry'),
          field(form, 'cvc'),
          ctx.store.now(customerId),
        )
        if (card.behaviour === 'declined' || card.behaviour === 'insufficient_funds')
          throw new CardError('Your card was declined.', 'card_declined')
        ctx.billing.replaceCard(customerId, card)
        return back('card')
      } catch (caught) {
        if (!(caught instanceof StripeApiError)) throw caught
        error = caught.message
      }
    }
  }
  const subscriptions = Object.values(ctx.store.state.subscriptions)
    .filter((s) => s.customer === customerId)
    .sort((a, b) => b.created - a.created)
    .map((subscription) => ({
      subscription,
      name: ctx.store.state.products[subscription.items.data[0]?.price.product ?? '']?.name ?? 'Subscription',
    }))
  const invoices = Object.values(ctx.store.state.invoices)
    .filter((i) => i.customer === customerId)
    .sort((a, b) => b.created - a.created)
  const html = portalPage(
    portalId,
    customer?.email ?? null,
    subscriptions,
    invoices,
    ctx.store.state.cards[customerId],
    portalSession.return_url,
    notice,
    error,
  )
  sendHtml(res, error ? 402 : 200, html)
}

function invoice(ctx: ApiContext, res: ServerResponse, id: string, pdf: boolean): void {
  const found = ctx.store.state.invoices[id]
  if (!found) sendHtml(res, 404, messagePage('Invoice not found', 'This invoice link is not valid.'))
  else if (!pdf) sendHtml(res, 200, invoicePage(found))
  else {
    send(res, 200, invoicePdf(found), {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="Invoice-${found.number ?? found.id}.pdf"`,
    })
  }
}

/** Answers a hosted-page request; false when the path is not one of them. */
export async function handleHosted(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const path = url.pathname
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent)
  const method = req.method ?? 'GET'
  if (
    segments[0] === 'c' &&
    segments[1] === 'pay' &&
    segments.length === 3 &&
    (method === 'GET' || method === 'POST')
  ) {
    await checkout(ctx, req, res, segments[2] ?? '')
    return true
  }
  if (
    segments[0] === 'p' &&
    segments[1] === 'session' &&
    segments.length >= 3 &&
    (method === 'GET' || method === 'POST')
  ) {
    await portal(ctx, req, res, segments.slice(2), url.searchParams)
    return true
  }
  if (
    segments[0] === 'i' &&
    method === 'GET' &&
    (segments.length === 2 || (segments.length === 3 && segments[2] === 'pdf'))
  ) {
    invoice(ctx, res, segments[1] ?? '', segments.length === 3)
    return true
  }
  return false
}
