// Ids the Stripe sandbox gives its objects, shaped like Stripe's.
import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A Stripe-looking id: `cus_`, `sub_`, `cs_test_`, … followed by random base62 characters. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length)
  let out = ''
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length]
  return `${prefix}_${out}`
}
