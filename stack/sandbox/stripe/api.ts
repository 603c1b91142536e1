// The /v1 endpoints Reachflow's functions call, each a plain function of validated parameters.
import {
  createCheckoutSession,
  expireSession,
  listSessions,
  retrieveSession,
  sessionLineItems,
} from './checkout-api.ts'
import { type ApiContext, type Handler, must } from './context.ts'
import { invalidRequest, StripeApiError } from './errors.ts'
import { newId } from './ids.ts'
import { buildCustomer, buildPrice, buildProduct, type Customer, type PortalSession } from './objects.ts'
import { readParams, schemas } from './params.ts'
import { type Expanders, matchesSearch, page, parseSearch, render } from './query.ts'
import { previewChange } from './subscription-change.ts'

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

const previewInvoice: Handler = (ctx, raw) => {
  const params = readParams(schemas.invoicePreview, raw)
  const subscription = must(ctx.store.state.subscriptions[params.subscription], params.subscription)
  if (params.customer && params.customer !== subscription.customer) {
    throw invalidRequest(`The subscription does not belong to customer '${params.customer}'.`, 'customer')
  }
  const details = params.subscription_details ?? {}
  const invoice = previewChange(ctx.store, ctx.publicUrl, subscription, {
    items: details.items ?? [],
    ...(details.proration_behavior ? { proration_behavior: details.proration_behavior } : {}),
    ...(details.proration_date !== undefined ? { proration_date: details.proration_date } : {}),
  })
  return render(ctx.store, invoice, params.expand)
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
  ['POST', '/v1/invoices/create_preview', previewInvoice],
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
