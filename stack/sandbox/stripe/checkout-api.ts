// The /v1/checkout/sessions endpoints: creating a subscription-mode session from prices or
// inline price_data, reading it back (line_items only when expanded, as Stripe does) and expiring it.
import { type ApiContext, type Handler, must } from './context.ts'
import { invalidRequest } from './errors.ts'
import { newId } from './ids.ts'
import { buildPrice, buildProduct, type LineItem, type Price, type Session } from './objects.ts'
import { readParams, schemas } from './params.ts'
import { type Expanders, page, render } from './query.ts'

const CHECKOUT_SESSION_HOURS = 24

function sessionExpanders(ctx: ApiContext): Expanders {
  return {
    'checkout.session.line_items': (session) => {
      const items = ctx.store.state.lineItems[String(session.id)] ?? []
      return {
        object: 'list',
        data: items,
        has_more: false,
        url: `/v1/checkout/sessions/${String(session.id)}/line_items`,
      }
    },
  }
}

function publicSession(ctx: ApiContext, session: Session) {
  return ctx.billing.publicSession(ctx.billing.refreshSession(session))
}

function createLineItem(
  ctx: ApiContext,
  item: { price?: string; price_data?: PriceData; quantity?: number },
  index: number,
  now: number,
): LineItem {
  let price: Price
  if (item.price) {
    price = must(ctx.store.state.prices[item.price], item.price)
  } else if (item.price_data) {
    const data = item.price_data
    let productId = data.product
    if (productId) must(ctx.store.state.products[productId], productId)
    else if (data.product_data) {
      const product = buildProduct(now, data.product_data)
      ctx.store.state.products[product.id] = product
      productId = product.id
    } else {
      throw invalidRequest(
        `Missing required param: line_items[${index}][price_data][product_data].`,
        `line_items[${index}][price_data][product_data]`,
        'parameter_missing',
      )
    }
    price = buildPrice(now, {
      product: productId,
      currency: data.currency,
      unit_amount: data.unit_amount,
      recurring: data.recurring,
      active: false,
    })
    ctx.store.state.prices[price.id] = price
  } else {
    throw invalidRequest(
      `You must specify either \`price\` or \`price_data\` in line_items[${index}].`,
      `line_items[${index}]`,
    )
  }
  if (!price.recurring) {
    throw invalidRequest(
      'You must provide at least one recurring price in `subscription` mode when using prices.',
      `line_items[${index}]`,
    )
  }
  const quantity = item.quantity ?? 1
  const amount = price.unit_amount * quantity
  const product = ctx.store.state.products[price.product]
  return {
    id: newId('li'),
    object: 'item',
    amount_subtotal: amount,
    amount_total: amount,
    amount_discount: 0,
    amount_tax: 0,
    currency: price.currency,
    description: product?.name ?? '',
    price,
    quantity,
  }
}

type PriceData = {
  currency: string
  unit_amount: number
  product?: string
  product_data?: { name: string; description?: string; metadata?: Record<string, string> }
  recurring?: { interval: 'day' | 'week' | 'month' | 'year'; interval_count?: number }
}

export const createCheckoutSession: Handler = (ctx, raw) => {
  const params = readParams(schemas.checkoutCreate, raw)
  if (params.mode !== 'subscription') {
    throw invalidRequest('The Stripe sandbox supports only `mode=subscription`.', 'mode')
  }
  if (params.customer && params.customer_email) {
    throw invalidRequest(
      'You may only specify one of these parameters: customer, customer_email.',
      'customer_email',
    )
  }
  if (params.customer) must(ctx.store.state.customers[params.customer], params.customer)
  const now = ctx.store.now(params.customer)
  const lineItems = params.line_items.map((item, index) => createLineItem(ctx, item, index, now))
  const currencies = new Set(lineItems.map((item) => item.currency))
  if (currencies.size > 1)
    throw invalidRequest('All prices on a Checkout Session must use the same currency.', 'line_items')
  const id = newId('cs_test', 58)
  const total = lineItems.reduce((sum, item) => sum + item.amount_total, 0)
  const session: Session = {
    id,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'open',
    payment_status: 'unpaid',
    amount_subtotal: total,
    amount_total: total,
    currency: lineItems[0]?.currency ?? 'usd',
    customer: params.customer ?? null,
    customer_email: params.customer_email ?? null,
    customer_details: null,
    client_reference_id: params.client_reference_id ?? null,
    metadata: params.metadata ?? {},
    subscription: null,
    invoice: null,
    success_url: params.success_url,
    cancel_url: params.cancel_url ?? null,
    url: `${ctx.publicUrl}/c/pay/${id}`,
    created: now,
    expires_at: now + CHECKOUT_SESSION_HOURS * 3600,
    livemode: false,
    subscription_data: {
      trial_period_days: params.subscription_data?.trial_period_days ?? null,
      metadata: params.subscription_data?.metadata ?? {},
      description: params.subscription_data?.description ?? null,
    },
  }
  ctx.store.state.checkoutSessions[id] = session
  ctx.store.state.lineItems[id] = lineItems
  ctx.store.changed()
  return render(ctx.store, publicSession(ctx, session), params.expand, sessionExpanders(ctx))
}

export const retrieveSession: Handler = (ctx, raw, id) => {
  const params = readParams(schemas.expandOnly, raw)
  const session = must(ctx.store.state.checkoutSessions[id], id)
  return render(ctx.store, publicSession(ctx, session), params.expand, sessionExpanders(ctx))
}

export const listSessions: Handler = (ctx, raw) => {
  const params = readParams(schemas.checkoutList, raw)
  const items = Object.values(ctx.store.state.checkoutSessions)
    .filter(
      (s) =>
        (!params.customer || s.customer === params.customer) &&
        (!params.subscription || s.subscription === params.subscription),
    )
    .map((s) => publicSession(ctx, s))
  return page(ctx.store, items, params, '/v1/checkout/sessions', sessionExpanders(ctx))
}

export const sessionLineItems: Handler = (ctx, raw, id) => {
  const params = readParams(
    schemas.checkoutList.pick({ limit: true, starting_after: true, ending_before: true, expand: true }),
    raw,
  )
  must(ctx.store.state.checkoutSessions[id], id)
  const items = (ctx.store.state.lineItems[id] ?? []).map((item, index) => ({ ...item, created: -index }))
  const result = page(ctx.store, items, params, `/v1/checkout/sessions/${id}/line_items`)
  return { ...result, data: result.data.map(({ created: _order, ...item }) => item) }
}

export const expireSession: Handler = (ctx, raw, id) => {
  const params = readParams(schemas.expandOnly, raw)
  const session = must(ctx.store.state.checkoutSessions[id], id)
  if (session.status !== 'open') {
    throw invalidRequest(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
    )
  }
  session.status = 'expired'
  session.url = null
  ctx.store.changed()
  return render(ctx.store, publicSession(ctx, session), params.expand, sessionExpanders(ctx))
}
