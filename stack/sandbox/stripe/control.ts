// /__sandbox/*: what tests and developers use to steer the sandbox (not part of Stripe's API).
//   GET  /__sandbox/health                      ready check
//   GET  /__sandbox/clock                       the sandbox time
//   POST /__sandbox/clock/advance               {seconds, customer?}: moves time (one customer's alone
//                                               when given), runs what fell due, waits for deliveries
//   GET  /__sandbox/events?type=&customer=      the delivery log, oldest first
//   POST /__sandbox/events/<id>/resend          delivers an event again (replays)
//   POST /__sandbox/webhooks/hold               {customer? | email?}: keep those events back
//   POST /__sandbox/webhooks/release            {customer? | email?, order: created|reverse}
//   POST /__sandbox/webhooks/drain              waits until queued deliveries are done
//   POST /__sandbox/checkout_sessions/<id>/pay  {card?, email?, name?}: pays as the hosted page does
//   POST /__sandbox/invoices/import             {invoices: [...]}: invoices issued before the sandbox
//                                               ran (the demo seed's payment history)
import type { ServerResponse } from 'node:http'
import { z } from 'zod'
import { CardError } from './cards.ts'
import type { ApiContext } from './context.ts'
import { successRedirect } from './hosted.ts'
import { sendJson } from './http.ts'
import { importInvoice } from './invoices.ts'

const advanceBody = z.strictObject({
  seconds: z
    .number()
    .int()
    .min(0)
    .max(20 * 365 * 86_400),
  customer: z.string().optional(),
})
const importBody = z.strictObject({
  invoices: z
    .array(
      z.strictObject({
        id: z.string().regex(/^in_[A-Za-z0-9_]{1,200}$/),
        customerEmail: z.string().min(3).max(320),
        amount: z.number().int().min(0),
        currency: z.string().length(3),
        paid: z.boolean(),
        description: z.string().max(500),
        created: z.number().int().min(0),
      }),
    )
    .max(1000),
})
const holdBody = z
  .strictObject({ customer: z.string().optional(), email: z.string().optional() })
  .refine((hold) => Boolean(hold.customer) !== Boolean(hold.email), 'Give exactly one of customer or email')
const releaseBody = z.strictObject({
  customer: z.string().optional(),
  email: z.string().optional(),
  order: z.enum(['created', 'reverse']).default('created'),
})
const payBody = z.strictObject({
  card: z.string().default('4242 4242 4242 4242'),
  expiry: z.string().default('12 / 34'),
  cvc: z.string().default('123'),
  email: z.string().optional(),
  name: z.string().optional(),
})

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

function parse<S extends z.ZodType>(schema: S, body: string): z.infer<S> {
  let json: unknown
  try {
    json = body ? JSON.parse(body) : {}
  } catch {
    throw new ControlError(400, 'Body must be JSON')
  }
  const result = schema.safeParse(json)
  if (!result.success) throw new ControlError(400, z.prettifyError(result.error))
  return result.data
}

const DRAIN_TIMEOUT_MS = 30_000

async function drained(ctx: ApiContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), DRAIN_TIMEOUT_MS)
  })
  const done = await Promise.race([ctx.webhooks.idle().then(() => true as const), timeout])
  clearTimeout(timer)
  return done
}

function eventLog(ctx: ApiContext, query: URLSearchParams) {
  const type = query.get('type')
  const customer = query.get('customer')
  return ctx.store.state.events
    .filter((r) => (!type || r.event.type === type) && (!customer || r.customer === customer))
    .map((r) => ({
      id: r.event.id,
      type: r.event.type,
      created: r.event.created,
      customer: r.customer,
      status: r.status,
      attempts: r.attempts,
      next_attempt_at: r.next_attempt_at,
      event: r.event,
    }))
}

async function route(
  ctx: ApiContext,
  method: string,
  segments: string[],
  query: URLSearchParams,
  body: string,
) {
  const [area, id, action] = segments
  if (method === 'GET' && area === 'health') return { ok: true }
  if (method === 'GET' && area === 'clock') {
    return {
      now: ctx.store.now(),
      offset_seconds: ctx.store.state.clockOffset,
      customer_offsets: ctx.store.state.customerClockOffsets,
    }
  }
  if (method === 'POST' && area === 'clock' && id === 'advance') {
    const { seconds, customer } = parse(advanceBody, body)
    if (customer) {
      if (!ctx.store.state.customers[customer]) throw new ControlError(404, `No such customer: '${customer}'`)
      ctx.store.state.customerClockOffsets[customer] =
        (ctx.store.state.customerClockOffsets[customer] ?? 0) + seconds
    } else {
      ctx.store.state.clockOffset += seconds
    }
    ctx.store.changed()
    const steps = ctx.billing.runDue(customer)
    const delivered = await drained(ctx)
    return { now: ctx.store.now(customer), steps, deliveries_settled: delivered }
  }
  if (method === 'GET' && area === 'events' && !id) return { data: eventLog(ctx, query) }
  if (method === 'POST' && area === 'events' && id && action === 'resend') {
    if (!ctx.webhooks.resend(id)) throw new ControlError(404, `No such event: '${id}'`)
    await drained(ctx)
    const record = ctx.webhooks.find(id)
    return { id, status: record?.status, attempts: record?.attempts }
  }
  if (method === 'POST' && area === 'invoices' && id === 'import') {
    const { invoices } = parse(importBody, body)
    return { imported: invoices.map((invoice) => importInvoice(ctx.store, ctx.publicUrl, invoice).id) }
  }
  if (method === 'POST' && area === 'webhooks' && id === 'hold') {
    ctx.webhooks.hold(parse(holdBody, body))
    return { held: true }
  }
  if (method === 'POST' && area === 'webhooks' && id === 'release') {
    const { order, ...hold } = parse(releaseBody, body)
    const released = ctx.webhooks.release(hold, order)
    await drained(ctx)
    return { released }
  }
  if (method === 'POST' && area === 'webhooks' && id === 'drain') return { settled: await drained(ctx) }
  if (method === 'POST' && area === 'checkout_sessions' && id && action === 'pay') {
    const input = parse(payBody, body)
    const session = ctx.store.state.checkoutSessions[id]
    if (!session) throw new ControlError(404, `No such checkout.session: '${id}'`)
    const email =
      session.customer_email ??
      input.email ??
      (session.customer ? ctx.store.state.customers[session.customer]?.email : null)
    if (!email) throw new ControlError(400, 'This session has no customer_email; give an email')
    try {
      ctx.billing.completeCheckout(session, {
        email,
        name: input.name ?? null,
        cardNumber: input.card,
        expiry: input.expiry,
        cvc: input.cvc,
      })
    } catch (error) {
      if (error instanceof CardError) throw new ControlError(402, error.message)
      throw error
    }
    await drained(ctx)
    return {
      session: ctx.billing.publicSession(session),
      redirect_url: successRedirect(session.success_url, id),
    }
  }
  throw new ControlError(404, `Unknown sandbox endpoint: ${method} /__sandbox/${segments.join('/')}`)
}

export async function handleControl(
  ctx: ApiContext,
  res: ServerResponse,
  method: string,
  url: URL,
  body: string,
): Promise<void> {
  const segments = url.pathname.split('/').filter(Boolean).slice(1).map(decodeURIComponent)
  try {
    sendJson(res, 200, await route(ctx, method, segments, url.searchParams, body))
  } catch (error) {
    if (error instanceof ControlError) return sendJson(res, error.status, { error: error.message })
    throw error
  }
}
