// The Stripe sandbox as one object: an HTTP server answering Stripe's /v1 API (as the real
// `stripe` client sends it: form-encoded bodies, Bearer secret key, Stripe-Version, Idempotency-Key),
// the hosted pages, and the /__sandbox controls. `createStripeSandbox` is used by main.ts (the
// stack service) and by the tests, which each run their own on a free port.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { findRoute } from './api.ts'
import { Billing } from './billing.ts'
import type { ApiContext } from './context.ts'
import { handleControl } from './control.ts'
import { StripeApiError, unknownUrl } from './errors.ts'
import { FormParseError, parseForm } from './form.ts'
import { handleHosted } from './hosted.ts'
import { BodyTooLarge, readBody, send, sendJson } from './http.ts'
import { newId } from './ids.ts'
import { Store } from './store.ts'
import { WebhookDispatcher } from './webhooks.ts'

export interface SandboxOptions {
  /** The only secret key the API accepts (`sk_test_…`). */
  secretKey: string
  webhookUrl: string
  webhookSecret: string
  /** Where state is kept between restarts; in memory only when absent. */
  stateFile?: string
  /** Base of the hosted page URLs; defaults to http://127.0.0.1:<port>. */
  publicUrl?: string
  retryBaseMs?: number
  maxDeliveryAttempts?: number
  /** How often real time is checked for trials and renewals falling due (0: never, tests advance by hand). */
  dueCheckMs?: number
  log?: (line: string) => void
}

export interface StripeSandbox {
  url: string
  port: number
  store: Store
  billing: Billing
  webhooks: WebhookDispatcher
  close(): Promise<void>
}

/** Stripe's answer when the key is missing or wrong (401, as stripe-node expects). */
function authenticate(req: IncomingMessage, secretKey: string): void {
  const header = req.headers.authorization ?? ''
  let key = ''
  if (header.startsWith('Bearer ')) key = header.slice('Bearer '.length).trim()
  else if (header.startsWith('Basic '))
    key = Buffer.from(header.slice(6), 'base64').toString().split(':')[0] ?? ''
  if (!key) {
    throw new StripeApiError(
      401,
      'invalid_request_error',
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    )
  }
  if (key !== secretKey) {
    throw new StripeApiError(
      401,
      'invalid_request_error',
      `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      'api_key_invalid',
    )
  }
}

async function handleApi(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  secretKey: string,
): Promise<void> {
  const method = req.method ?? 'GET'
  const requestId = newId('req', 14)
  const version = (req.headers['stripe-version'] as string | undefined) ?? Stripe.API_VERSION
  const idempotencyKey = req.headers['idempotency-key'] as string | undefined
  const headers: Record<string, string> = {
    'Request-Id': requestId,
    'Stripe-Version': version,
    ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
  }
  let status = 200
  let payload: unknown
  try {
    authenticate(req, secretKey)
    const body = await readBody(req)
    const replayKey = idempotencyKey && method !== 'GET' ? `${idempotencyKey}` : undefined
    const fingerprint = createHash('sha256')
      .update(`${method} ${url.pathname}?${url.search}\n${body}`)
      .digest('hex')
    const replay = replayKey ? ctx.store.state.idempotency[replayKey] : undefined
    if (replay) {
      if (replay.fingerprint !== fingerprint) {
        throw new StripeApiError(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        )
      }
      return send(res, replay.status, replay.body, {
        'Content-Type': 'application/json',
        ...headers,
        'Idempotent-Replayed': 'true',
      })
    }
    const route = findRoute(method, url.pathname)
    if (!route) throw unknownUrl(method, url.pathname)
    const params = { ...parseForm(url.search.slice(1)), ...parseForm(body) }
    payload = route.handler(ctx, params, route.id)
    if (replayKey) {
      ctx.store.state.idempotency[replayKey] = {
        fingerprint,
        status,
        body: JSON.stringify(payload, null, 2),
        at: Math.floor(Date.now() / 1000),
      }
      ctx.store.changed()
    }
  } catch (error) {
    const known =
      error instanceof StripeApiError
        ? error
        : error instanceof FormParseError
          ? new StripeApiError(400, 'invalid_request_error', error.message)
          : error instanceof BodyTooLarge
            ? new StripeApiError(413, 'invalid_request_error', error.message)
            : undefined
    if (!known) {
      ctx.store.changed()
      throw error
    }
    status = known.status
    payload = known.toJSON()
  }
  sendJson(res, status, payload, headers)
}

export async function createStripeSandbox(
  options: SandboxOptions,
  port = 0,
  host = '127.0.0.1',
): Promise<StripeSandbox> {
  const store = new Store(options.stateFile)
  let publicUrl = options.publicUrl ?? ''
  const webhooks = new WebhookDispatcher(store, {
    url: options.webhookUrl,
    secret: options.webhookSecret,
    apiVersion: Stripe.API_VERSION,
    retryBaseMs: options.retryBaseMs ?? 2000,
    maxAttempts: options.maxDeliveryAttempts ?? 8,
    log: options.log,
  })
  const ctx: ApiContext = {
    store,
    webhooks,
    get publicUrl() {
      return publicUrl
    },
    billing: undefined as unknown as Billing,
  }
  const billing = new Billing(store, webhooks, () => publicUrl)
  ctx.billing = billing

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox')
    const work = async () => {
      if (url.pathname.startsWith('/v1/')) return handleApi(ctx, req, res, url, options.secretKey)
      if (url.pathname.startsWith('/__sandbox/')) {
        return handleControl(
          ctx,
          res,
          req.method ?? 'GET',
          url,
          req.method === 'POST' ? await readBody(req, 64 * 1024) : '',
        )
      }
      if (await handleHosted(ctx, req, res, url)) return
      sendJson(res, 404, unknownUrl(req.method ?? 'GET', url.pathname).toJSON())
    }
    work().catch((error: unknown) => {
      options.log?.(
        `stripe sandbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      )
      if (!res.headersSent)
        sendJson(res, 500, {
          error: { type: 'api_error', message: 'The Stripe sandbox hit an internal error.' },
        })
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const actualPort = (server.address() as AddressInfo).port
  publicUrl = options.publicUrl ?? `http://${host}:${actualPort}`
  webhooks.resume()
  billing.runDue()
  const dueTimer = options.dueCheckMs ? setInterval(() => billing.runDue(), options.dueCheckMs) : undefined

  return {
    url: publicUrl,
    port: actualPort,
    store,
    billing,
    webhooks,
    async close() {
      if (dueTimer) clearInterval(dueTimer)
      webhooks.stop()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      store.flush()
    },
  }
}
