// Meta's webhook endpoint for official Instagram accounts (verify_jwt = false: Meta signs, it has no
// JWT). GET answers the subscription check with hub.challenge when hub.verify_token matches.
// POST checks X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret, compared in
// constant time) before reading anything, stores each event once by its id with a job for the
// runner, and answers 200 at once: Meta retries what is not answered quickly, and processing (the
// automations' replies) happens from the queue.
import { type SupabaseClient, serviceClient } from '../_shared/clients.ts'
import { DatabaseError } from '../_shared/db-errors.ts'
import { denoEnv, type Env, requireEnv } from '../_shared/env.ts'
import {
  badRequest,
  forbidden,
  HttpError,
  handleRequest,
  jsonResponse,
  payloadTooLarge,
  unauthorized,
} from '../_shared/errors.ts'
import { readEvents } from './events.ts'

/** Meta's deliveries are small; this leaves room for batched entries. */
export const MAX_BODY_BYTES = 1024 * 1024

export interface WebhookDeps {
  env: Env
  service: () => SupabaseClient
  now: () => Date
}

export function defaultDeps(env: Env = denoEnv): WebhookDeps {
  return { env, service: () => serviceClient(env), now: () => new Date() }
}

const encoder = new TextEncoder()

/** Equal-length byte comparison whose time does not depend on where the bytes differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return difference === 0
}

async function readBytes(req: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('Content-Length') ?? '')
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw payloadTooLarge('Body too large')
  const bytes = new Uint8Array(await req.arrayBuffer())
  if (bytes.byteLength > MAX_BODY_BYTES) throw payloadTooLarge('Body too large')
  return bytes
}

export async function signatureValid(
  secret: string,
  body: Uint8Array<ArrayBuffer>,
  header: string | null,
): Promise<boolean> {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')
  if (!match?.[1]) return false
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, body))
  const given = new Uint8Array(match[1].match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? [])
  return sameBytes(expected, given)
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
    if (req.method === 'GET') return challenge(url, deps.env)
    if (req.method === 'POST') return await receive(req, deps)
    throw new HttpError(405, `Method ${req.method} is not allowed`, undefined, { Allow: 'GET, POST' })
  })
}
