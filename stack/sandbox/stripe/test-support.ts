// Shared by the sandbox tests: a sandbox of their own on a free port, the real `stripe` client
// pointed at it, and a webhook receiver that records what arrives and can be told to fail.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { createStripeSandbox, type SandboxOptions, type StripeSandbox } from './server.ts'

export const TEST_SECRET_KEY = 'sk_test_sandboxTests000000000000'
export const TEST_WEBHOOK_SECRET = 'whsec_sandboxTests000000000000'

export interface Delivery {
  signature: string
  body: string
  type: string
  id: string
}

export interface Receiver {
  url: string
  deliveries: Delivery[]
  /** Answer the next `count` deliveries (of `type` only, when given) with this status instead of 200. */
  failNext(count: number, status?: number, type?: string): void
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = []
  let failures = 0
  let failStatus = 500
  let failType: string | undefined
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', () => {
      const event = JSON.parse(body) as { id: string; type: string }
      deliveries.push({
        signature: String(req.headers['stripe-signature']),
        body,
        type: event.type,
        id: event.id,
      })
      if (failures > 0 && (!failType || failType === event.type)) {
        failures--
        res.writeHead(failStatus).end('{"error":"not now"}')
      } else {
        res.writeHead(200).end('{"received":true}')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/stripe-webhook`,
    deliveries,
    failNext(count, status = 500, type) {
      failures = count
      failStatus = status
      failType = type
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export function clientFor(sandbox: { url: string }, key = TEST_SECRET_KEY): Stripe {
  const url = new URL(sandbox.url)
  return new Stripe(key, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  })
}

export async function startSandbox(
  receiver: Receiver,
  options: Partial<SandboxOptions> = {},
): Promise<{ sandbox: StripeSandbox; stripe: Stripe }> {
  const sandbox = await createStripeSandbox({
    secretKey: TEST_SECRET_KEY,
    webhookUrl: receiver.url,
    webhookSecret: TEST_WEBHOOK_SECRET,
    retryBaseMs: 40,
    maxDeliveryAttempts: 4,
    ...options,
  })
  return { sandbox, stripe: clientFor(sandbox) }
}

export async function control<T = Record<string, unknown>>(
  sandbox: { url: string },
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${sandbox.url}/__sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await response.json()) as T
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

/** A Growth-like checkout: `accounts` × $39 a month, 3-day trial, Reachflow's metadata. */
export function growthCheckout(
  stripe: Stripe,
  email: string,
  accounts = 3,
  trialDays: number | undefined = 3,
) {
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [
      {
        quantity: accounts,
        price_data: {
          currency: 'usd',
          unit_amount: 3900,
          recurring: { interval: 'month' },
          product_data: { name: 'Growth' },
        },
      },
    ],
    customer_email: email,
    client_reference_id: 'user-1',
    metadata: {
      userId: 'user-1',
      planType: 'growth',
      billing_cycle: 'monthly',
      accounts: String(accounts),
      traffic_source: 'unknown',
    },
    subscription_data: {
      ...(trialDays ? { trial_period_days: trialDays } : {}),
      metadata: { userId: 'user-1' },
    },
    success_url: 'http://127.0.0.1:9/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:9/cancel',
  })
}

export const DAY = 86_400
