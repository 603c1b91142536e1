// The /v1 endpoints Reachflow's functions call, each a plain function of validated parameters.
import type { Billing } from './billing.ts'
import { invalidRequest, resourceMissing, StripeApiError } from './errors.ts'
import type { FormObject } from './form.ts'
import {
  buildCustomer,
  buildPrice,
  buildProduct,
  type Customer,
  type LineItem,
  type PortalSession,
  type Price,
  type Session,
} from './objects.ts'
import { readParams, schemas } from './params.ts'
import { type Expanders, matchesSearch, page, parseSearch, render } from './query.ts'
import { newId, type Store } from './store.ts'
import type { WebhookDispatcher } from './webhooks.ts'

export interface ApiContext {
  store: Store
  billing: Billing
  webhooks: WebhookDispatcher
  publicUrl: string
}

type Handler = (ctx: ApiContext, params: FormObject, id: string) => unknown

const CHECKOUT_SESSION_HOURS = 24

function must<T>(value: T | undefined, id: string): T {
  if (value === undefined) throw resourceMissing(id)
  return value
}

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

const createCheckoutSession: Handler = (ctx, raw) => {
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

const createCustomer: Handler = (ctx, raw) => {
  const params = readParams(schemas.customerCreate, raw)
  const customer = buildCustomer(ctx.store.now(), params)
  ctx.store.state.customers[customer.id] = customer
  ctx.store.changed()
  return render(ctx.store, customer, params.expand)
}

const updateCustomer: Handler = (ctx, raw, id) => {
  const params = readParams(schemas.customerUpdate, raw)
  const customer = must(ctx.store.state.customers[id], id)
  const { expand, metadata, ...fields } = params
  Object.assign(customer, fields)
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (value === '') delete customer.metadata[key]
    else customer.metadata[key] = value
  }
  ctx.store.changed()
  return render(ctx.store, customer, expand)
}

const listCustomers: Handler = (ctx, raw) => {
  const params = readParams(schemas.customerList, raw)
  const all = Object.values(ctx.store.state.customers)
  const wanted = params.email?.toLowerCase()
  const items = wanted ? all.filter((c) => c.email?.toLowerCase() === wanted) : all
  return page(ctx.store, items, params, '/v1/customers')
}

const searchCustomers: Handler = (ctx, raw) => {
  const params = readParams(schemas.search, raw)
  const search = parseSearch(params.query)
  const found = Object.values(ctx.store.state.customers).filter((c) =>
    matchesSearch(c as unknown as Record<string, unknown>, search),
  )
  const offset = params.page ? Number.parseInt(Buffer.from(params.page, 'base64url').toString(), 10) || 0 : 0
  const limit = params.limit ?? 10
  const sorted = found.sort((a: Customer, b: Customer) => b.created - a.created)
  const slice = sorted.slice(offset, offset + limit)
  const more = offset + limit < sorted.length
  return {
    object: 'search_result',
    data: slice.map((c) =>
      render(
        ctx.store,
        c,
        params.expand?.map((p) => p.replace(/^data\./, '')),
      ),
    ),
    has_more: more,
    next_page: more ? Buffer.from(String(offset + limit)).toString('base64url') : null,
    total_count: sorted.length,
    url: '/v1/customers/search',
  }
}

const createProduct: Handler = (ctx, raw) => {
  const params = readParams(schemas.productCreate, raw)
  const product = buildProduct(ctx.store.now(), params)
  ctx.store.state.products[product.id] = product
  ctx.store.changed()
  return render(ctx.store, product, params.expand)
}

const createPrice: Handler = (ctx, raw) => {
  const params = readParams(schemas.priceCreate, raw)
  const now = ctx.store.now()
  let productId = params.product
  if (productId) must(ctx.store.state.products[productId], productId)
  else if (params.product_data) {
    const product = buildProduct(now, params.product_data)
    ctx.store.state.products[product.id] = product
    productId = product.id
  } else {
    throw invalidRequest('Missing required param: product.', 'product', 'parameter_missing')
  }
  const price = buildPrice(now, { ...params, product: productId })
  ctx.store.state.prices[price.id] = price
  ctx.store.changed()
  return render(ctx.store, price, params.expand)
}

function retrieve(
  collection: (ctx: ApiContext) => Record<string, unknown>,
  expanders?: (ctx: ApiContext) => Expanders,
): Handler {
  return (ctx, raw, id) => {
    const params = readParams(schemas.expandOnly, raw)
    const object = must(collection(ctx)[id], id)
    return render(ctx.store, object, params.expand, expanders?.(ctx))
  }
}

const retrieveSession: Handler = (ctx, raw, id) => {
  const params = readParams(schemas.expandOnly, raw)
  const session = must(ctx.store.state.checkoutSessions[id], id)
  return render(ctx.store, publicSession(ctx, session), params.expand, sessionExpanders(ctx))
}

const listSessions: Handler = (ctx, raw) => {
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

const sessionLineItems: Handler = (ctx, raw, id) => {
  const params = readParams(
    schemas.checkoutList.pick({ limit: true, starting_after: true, ending_before: true, expand: true }),
    raw,
  )
  must(ctx.store.state.checkoutSessions[id], id)
  const items = (ctx.store.state.lineItems[id] ?? []).map((item, index) => ({ ...item, created: -index }))
  const result = page(ctx.store, items, params, `/v1/checkout/sessions/${id}/line_items`)
  return { ...result, data: result.data.map(({ created: _order, ...item }) => item) }
}

const expireSession: Handler = (ctx, raw, id) => {
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

const listSubscriptions: Handler = (ctx, raw) => {
  const params = readParams(schemas.subscriptionList, raw)
  const status = params.status
  const items = Object.values(ctx.store.state.subscriptions).filter((s) => {
    if (params.customer && s.customer !== params.customer) return false
    if (params.price && !s.items.data.some((item) => item.price.id === params.price)) return false
    if (status === 'all') return true
    if (status === 'ended') return s.status === 'canceled' || s.status === 'incomplete_expired'
    if (status) return s.status === status
    return s.status !== 'canceled' && s.status !== 'incomplete_expired'
  })
  return page(ctx.store, items, params, '/v1/subscriptions')
}

const updateSubscription: Handler = (ctx, raw, id) => {
  const params = readParams(schemas.subscriptionUpdate, raw)
  const subscription = must(ctx.store.state.subscriptions[id], id)
  ctx.billing.updateSubscription(subscription, params)
  return render(ctx.store, subscription, params.expand)
}

const cancelSubscription: Handler = (ctx, raw, id) => {
  const params = readParams(schemas.subscriptionCancel, raw)
  const subscription = must(ctx.store.state.subscriptions[id], id)
  if (subscription.status === 'canceled') {
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `No such subscription: '${id}'`,
      'resource_missing',
      'id',
    )
  }
  if (params.cancellation_details) {
    subscription.cancellation_details = {
      ...subscription.cancellation_details,
      comment: params.cancellation_details.comment ?? null,
      feedback: params.cancellation_details.feedback ?? null,
    }
  }
  ctx.billing.endSubscription(subscription, ctx.store.now(subscription.customer), 'cancellation_requested')
  return render(ctx.store, subscription, params.expand)
}

const listInvoices: Handler = (ctx, raw) => {
  const params = readParams(schemas.invoiceList, raw)
  const items = Object.values(ctx.store.state.invoices).filter(
    (invoice) =>
      (!params.customer || invoice.customer === params.customer) &&
      (!params.subscription || invoice.parent.subscription_details.subscription === params.subscription) &&
      (!params.status || invoice.status === params.status),
  )
  return page(ctx.store, items, params, '/v1/invoices')
}

const createPortalSession: Handler = (ctx, raw) => {
  const params = readParams(schemas.portalCreate, raw)
  must(ctx.store.state.customers[params.customer], params.customer)
  const id = newId('bps')
  const session: PortalSession = {
    id,
    object: 'billing_portal.session',
    customer: params.customer,
    return_url: params.return_url ?? null,
    url: `${ctx.publicUrl}/p/session/${id}`,
    created: ctx.store.now(params.customer),
    livemode: false,
    configuration: 'bpc_sandbox_default',
    locale: null,
    on_behalf_of: null,
    flow: null,
  }
  ctx.store.state.portalSessions[id] = session
  ctx.store.changed()
  return render(ctx.store, session, params.expand)
}

const listEvents: Handler = (ctx, raw) => {
  const params = readParams(schemas.eventList, raw)
  const events = ctx.store.state.events
    .map((record) => record.event)
    .filter((e) => !params.type || e.type === params.type)
  return page(ctx.store, events, params, '/v1/events')
}

const retrieveEvent: Handler = (ctx, raw, id) => {
  readParams(schemas.expandOnly, raw)
  return must(ctx.webhooks.find(id)?.event, id)
}

/** [method, path pattern (`:id` is one segment), handler]; the first match wins. */
export const ROUTES: Array<[string, string, Handler]> = [
  ['POST', '/v1/customers', createCustomer],
  ['GET', '/v1/customers', listCustomers],
  ['GET', '/v1/customers/search', searchCustomers],
  ['GET', '/v1/customers/:id', retrieve((ctx) => ctx.store.state.customers)],
  ['POST', '/v1/customers/:id', updateCustomer],
  ['POST', '/v1/products', createProduct],
  ['GET', '/v1/products/:id', retrieve((ctx) => ctx.store.state.products)],
  ['POST', '/v1/prices', createPrice],
  ['GET', '/v1/prices/:id', retrieve((ctx) => ctx.store.state.prices)],
  ['POST', '/v1/checkout/sessions', createCheckoutSession],
  ['GET', '/v1/checkout/sessions', listSessions],
  ['GET', '/v1/checkout/sessions/:id', retrieveSession],
  ['GET', '/v1/checkout/sessions/:id/line_items', sessionLineItems],
  ['POST', '/v1/checkout/sessions/:id/expire', expireSession],
  ['GET', '/v1/subscriptions', listSubscriptions],
  ['GET', '/v1/subscriptions/:id', retrieve((ctx) => ctx.store.state.subscriptions)],
  ['POST', '/v1/subscriptions/:id', updateSubscription],
  ['DELETE', '/v1/subscriptions/:id', cancelSubscription],
  ['GET', '/v1/invoices', listInvoices],
  ['GET', '/v1/invoices/:id', retrieve((ctx) => ctx.store.state.invoices)],
  ['POST', '/v1/billing_portal/sessions', createPortalSession],
  ['GET', '/v1/events', listEvents],
  ['GET', '/v1/events/:id', retrieveEvent],
]

export function findRoute(method: string, path: string): { handler: Handler; id: string } | undefined {
  const segments = path.split('/')
  for (const [routeMethod, pattern, handler] of ROUTES) {
    if (routeMethod !== method) continue
    const parts = pattern.split('/')
    if (parts.length !== segments.length) continue
    let id = ''
    const matched = parts.every((part, i) => {
      const segment = segments[i] ?? ''
      if (part === ':id') {
        id = decodeURIComponent(segment)
        return segment.length > 0
      }
      return part === segment
    })
    if (matched) return { handler, id }
  }
  return undefined
}
