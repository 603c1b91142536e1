// Meta's two app callbacks for Instagram Login (App Dashboard › Instagram › Business login
// settings), served beside the webhook: Deauthorize (the person removed Reachflow in Instagram's
// settings) and Data deletion (the person asked for the data the app holds to be deleted). Meta
// POSTs a form with `signed_request` = base64url(HMAC-SHA256 of the payload part with the app
// secret) "." base64url(JSON {algorithm: "HMAC-SHA256", issued_at, user_id}); nothing is read or
// done before that signature checks out. The data deletion answer is what Meta shows the person:
// a status URL and a confirmation code; GET /data-deletion?code= is what the public status page
// reads by that code (the code is the only key: 128 random bits, and it tells only when), at most
// STATUS_LOOKUPS times per client address in each STATUS_WINDOW_SECONDS.
import { DatabaseError } from '../_shared/db-errors.ts'
import { requireEnv } from '../_shared/env.ts'
import { badRequest, HttpError, jsonResponse, notFound, unauthorized } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { z } from '../_shared/validation.ts'
import type { WebhookDeps } from './deps.ts'
import { hmacSha256, readBytes, sameBytes } from './signing.ts'

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null
  const padded = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=')
  try {
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

/** The Instagram user id a valid signed request is about; throws 401 for a bad signature, 400 for a bad payload. */
export async function signedRequestUser(req: Request, secret: string): Promise<string> {
  const form = new URLSearchParams(new TextDecoder().decode(await readBytes(req)))
  const [signature, payload, ...rest] = (form.get('signed_request') ?? '').split('.')
  const given = base64UrlBytes(signature ?? '')
  if (!given || !payload || rest.length > 0) throw unauthorized('Invalid signed_request')
  if (!sameBytes(await hmacSha256(secret, new TextEncoder().encode(payload)), given))
    throw unauthorized('Invalid signed_request')
  let data: { algorithm?: unknown; user_id?: unknown }
  try {
    data = JSON.parse(new TextDecoder().decode(base64UrlBytes(payload) ?? new Uint8Array()))
  } catch {
    throw badRequest('signed_request payload must be JSON')
  }
  if (String(data.algorithm).toUpperCase() !== 'HMAC-SHA256')
    throw badRequest('Unknown signed_request algorithm')
  const userId = String(data.user_id ?? '')
  if (!/^[0-9]{1,30}$/.test(userId)) throw badRequest('signed_request has no user_id')
  return userId
}

export async function deauthorize(req: Request, deps: WebhookDeps): Promise<Response> {
  const userId = await signedRequestUser(req, requireEnv('INSTAGRAM_APP_SECRET', deps.env))
  const { data, error } = await deps
    .service()
    .rpc('instagram_access_removed', { p_instagram_user_id: userId })
  if (error) throw new DatabaseError(error)
  return jsonResponse({ received: true, accounts: data })
}

export async function dataDeletion(req: Request, deps: WebhookDeps): Promise<Response> {
  const userId = await signedRequestUser(req, requireEnv('INSTAGRAM_APP_SECRET', deps.env))
  const { data, error } = await deps
    .service()
    .rpc('delete_instagram_user_data', { p_instagram_user_id: userId })
  if (error) throw new DatabaseError(error)
  const code = (data as { confirmation_code: string }).confirmation_code
  const status = new URL('/data-deletion', requireEnv('SITE_URL', deps.env))
  status.searchParams.set('code', code)
  return jsonResponse({ url: status.toString(), confirmation_code: code })
}

/** 32 hex digits; codes given before they had 128 bits have 16 and still work. */
const CODE = /^(?:[0-9A-Fa-f]{16}){1,2}$/

const lookupTaken = z.object({ allowed: z.boolean(), retryAfterSeconds: z.number().int() })

/** A person checks their request a few times; a flood of guesses from one address is turned away. */
export const STATUS_LOOKUPS = 30
export const STATUS_WINDOW_SECONDS = 600

/**
 * The client's address: the last X-Forwarded-For entry, the one the platform's proxy appended (the
 * local gateway does the same); earlier entries are whatever the client sent.
 */
export function clientAddress(req: Request): string {
  const hops = (req.headers.get('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim())
  return hops.findLast((hop) => hop !== '') ?? 'unknown'
}

export async function dataDeletionStatus(req: Request, url: URL, deps: WebhookDeps): Promise<Response> {
  const taken = await deps.service().rpc('take_public_lookup', {
    p_form: 'data-deletion-status',
    p_address: clientAddress(req),
    p_limit: STATUS_LOOKUPS,
    p_window_seconds: STATUS_WINDOW_SECONDS,
  })
  if (taken.error) throw new DatabaseError(taken.error)
  const { allowed, retryAfterSeconds } = fromJson(lookupTaken, taken.data, 'take_public_lookup')
  if (!allowed)
    throw new HttpError(429, 'Too many lookups from your address. Try again in a few minutes.', undefined, {
      'Retry-After': String(retryAfterSeconds),
    })
  const code = (url.searchParams.get('code') ?? '').trim()
  if (!CODE.test(code)) throw badRequest('The confirmation code has 32 letters and digits (0-9, A-F).')
  const { data, error } = await deps.service().rpc('instagram_data_deletion_status', { p_code: code })
  if (error) throw new DatabaseError(error)
  if (data === null) throw notFound('No deletion request has this confirmation code.')
  return jsonResponse(data)
}
