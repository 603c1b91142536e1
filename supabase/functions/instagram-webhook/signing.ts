// What the webhook and the app callbacks share to check Meta's signatures: the body read within a
// size limit, HMAC-SHA256 with the app secret, and a comparison whose time does not depend on
// where the bytes differ.
import { payloadTooLarge } from '../_shared/errors.ts'

/** Meta's deliveries are small; this leaves room for batched entries. */
export const MAX_BODY_BYTES = 1024 * 1024

const encoder = new TextEncoder()

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return difference === 0
}

export async function readBytes(req: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('Content-Length') ?? '')
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw payloadTooLarge('Body too large')
  const bytes = new Uint8Array(await req.arrayBuffer())
  if (bytes.byteLength > MAX_BODY_BYTES) throw payloadTooLarge('Body too large')
  return bytes
}

export async function hmacSha256(secret: string, body: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, body))
}
