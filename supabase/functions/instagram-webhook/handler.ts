// Meta's webhook endpoint for official Instagram accounts (verify_jwt = false: Meta signs, it has no
// JWT). GET answers the subscription check with hub.challenge when hub.verify_token matches.
// POST checks X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret, compared in
// constant time) before reading anything, stores each event once by its id with a job for the
// runner, and answers 200 at once: Meta retries what is not answered quickly, and processing (the
// automations' replies) happens from the queue. /deauthorize and /data-deletion are Meta's app
// callbacks (app-callbacks.ts).
import { serviceClient } from '../_shared/clients.ts'
import { DatabaseError } from '../_shared/db-errors.ts'
import { denoEnv, type Env, requireEnv } from '../_shared/env.ts'
import {
  badRequest,
  forbidden,
  HttpError,
  handleRequest,
  jsonResponse,
  unauthorized,
} from '../_shared/errors.ts'
import { dataDeletion, dataDeletionStatus, deauthorize } from './app-callbacks.ts'
import type { WebhookDeps } from './deps.ts'
import { readEvents } from './events.ts'
import { hmacSha256, readBytes, sameBytes } from './signing.ts'

export function defaultDeps(env: Env = denoEnv): WebhookDeps {
  return { env, service: () => serviceClient(env), now: () => new Date() }
}

const encoder = new TextEncoder()

export async function signatureValid(
  secret: string,
  body: Uint8Array<ArrayBuffer>,
  header: string | null,
): Promise<boolean> {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')
  if (!match?.[1]) return false
  const given = new Uint8Array(match[1].match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? [])
  return sameBytes(await hmacSha256(secret, body), given)
}

function challenge(url: URL, env: Env): Response {
  const token = url.searchParams.get('hub.verify_token') ?? ''
  const expected = requireEnv('INSTAGRAM_WEBHOOK_VERIFY_TOKEN', env)
  if (
    url.searchParams.get('hub.mode') !== 'subscribe' ||
    !sameBytes(encoder.encode(token), encoder.encode(expected))
  )
    throw forbidden('Verification failed')
  return new Response(url.searchParams.get('hub.challenge') ?? '', {
    status: 200,
    headers: { 'content-type': 'text/plain' },
  })
}

async function receive(req: Request, deps: WebhookDeps): Promise<Response> {
  const body = await readBytes(req)
  if (
    !(await signatureValid(
      requireEnv('INSTAGRAM_APP_SECRET', deps.env),
      body,
      req.headers.get('x-hub-signature-256'),
    ))
  )
    throw unauthorized('Invalid signature')
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(body))
  } catch {
    throw badRequest('Body must be JSON')
  }
  const events = await readEvents(parsed, deps.now())
  // signed by Meta but not an Instagram event: nothing to keep, and nothing Meta should retry
  if (!events?.length) return jsonResponse({ received: true, stored: 0, repeated: 0 })
  const { data, error } = await deps
    .service()
    .rpc('record_instagram_webhook_events', { p_events: events as never })
  if (error) throw new DatabaseError(error)
  return jsonResponse({ received: true, ...(data as { stored: number; repeated: number }) })
}

export function createWebhookHandler(deps: WebhookDeps = defaultDeps()) {
  return handleRequest(async (req) => {
    const url = new URL(req.url)
    // Meta's app callbacks, beside the webhook (one function Meta reaches without a JWT)
    if (req.method === 'POST' && url.pathname.endsWith('/deauthorize')) return await deauthorize(req, deps)
    if (url.pathname.endsWith('/data-deletion'))
      return req.method === 'GET' ? await dataDeletionStatus(req, url, deps) : await dataDeletion(req, deps)
    if (req.method === 'GET') return challenge(url, deps.env)
    if (req.method === 'POST') return await receive(req, deps)
    throw new HttpError(405, `Method ${req.method} is not allowed`, undefined, { Allow: 'GET, POST' })
  })
}
