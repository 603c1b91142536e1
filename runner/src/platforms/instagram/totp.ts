// RFC 6238 TOTP codes (HMAC-SHA1, 30 s, 6 digits) from a user's base32 2FA secret, with the
// runner's clock so a test clock and the sandbox agree.
import { createHmac } from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
export const TOTP_STEP_SECONDS = 30

export function decodeBase32(secret: string): Uint8Array {
  const clean = secret.replace(/[\s=-]/g, '').toUpperCase()
  if (!clean) throw new Error('The 2FA secret is empty.')
  const bytes: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of clean) {
    const value = ALPHABET.indexOf(char)
    if (value < 0) throw new Error('The 2FA secret must be base32 (letters A–Z and digits 2–7).')
    buffer = (buffer << 5) | value
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((buffer >> bits) & 0xff)
    }
  }
  return Uint8Array.from(bytes)
}

export function totpCode(secret: string, atMs: number): string {
  const counter = Math.floor(atMs / 1000 / TOTP_STEP_SECONDS)
  const message = Buffer.alloc(8)
  message.writeUInt32BE(Math.floor(counter / 2 ** 32), 0)
  message.writeUInt32BE(counter >>> 0, 4)
  const digest = createHmac('sha1', decodeBase32(secret)).update(message).digest()
  const offset = (digest.at(-1) ?? 0) & 0x0f
  const code = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000
  return String(code).padStart(6, '0')
}

/** Milliseconds left in the current 30 s step. */
export function msLeftInStep(atMs: number): number {
  return TOTP_STEP_SECONDS * 1000 - (atMs % (TOTP_STEP_SECONDS * 1000))
}
