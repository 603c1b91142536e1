// RFC 6238 TOTP (HMAC-SHA1, 30 s steps, 6 digits) as authenticator apps and Instagram use it.
// The sandbox verifies codes against each account's secret on the sandbox clock.
import { createHmac, randomBytes } from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Decode(secret: string): Buffer {
  const clean = secret.replace(/[\s=-]/g, '').toUpperCase()
  let bits = 0
  let value = 0
  const out: number[] = []
  for (const char of clean) {
    const index = ALPHABET.indexOf(char)
    if (index < 0) throw new Error(`Invalid base32 character "${char}"`)
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

export function newTotpSecret(): string {
  const bytes = randomBytes(20)
  let out = ''
  for (let i = 0; i < bytes.length * 8; i += 5) {
    let chunk = 0
    for (let b = 0; b < 5; b++) {
      const bit = i + b
      const byte = bytes[bit >> 3] ?? 0
      chunk = (chunk << 1) | (bit < bytes.length * 8 ? (byte >> (7 - (bit & 7))) & 1 : 0)
    }
    out += ALPHABET[chunk]
  }
  return out
}

export function totpAt(secret: string, timeMs: number, stepSeconds = 30, digits = 6): string {
  const counter = Math.floor(timeMs / 1000 / stepSeconds)
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const hmac = createHmac('sha1', base32Decode(secret)).update(message).digest()
  const offset = (hmac[hmac.length - 1] ?? 0) & 0x0f
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** True when the code matches the current step or one step either side (clock drift). */
export function verifyTotp(secret: string, code: string, nowMs: number): boolean {
  if (!/^\d{6}$/.test(code)) return false
  return [-1, 0, 1].some((drift) => totpAt(secret, nowMs + drift * 30_000) === code)
}
