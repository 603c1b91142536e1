// X Chat is end-to-end encrypted: what its client sends and receives is opaque on the network.
// Each of "our" accounts has a chat key; the page gets it, wrapped with a key derived from the
// passcode, only after the passcode step (accounts without a passcode: wrapped with an empty one,
// as if this device already held the keys). Every chat payload is then AES-256-GCM under that key,
// in the format WebCrypto produces (ciphertext followed by the tag), so the bundle can use it.
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto'
import { HttpError } from '../social/http.ts'
import type { OwnAccount } from '../social/state.ts'

/** PBKDF2 rounds for the passcode wrap; the bundle uses the same. */
export const WRAP_ITERATIONS = 20_000

export interface Envelope {
  v: 1
  iv: string
  ct: string
}

export function chatKeyOf(account: OwnAccount): Buffer {
  account.chatKey ??= randomBytes(32).toString('base64')
  return Buffer.from(account.chatKey, 'base64')
}

function encrypt(key: Buffer, plain: Buffer): { iv: Buffer; ct: Buffer } {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const ct = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()])
  return { iv, ct }
}

function decrypt(key: Buffer, iv: Buffer, ct: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv)
  decipher.setAuthTag(ct.subarray(ct.length - 16))
  return Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()])
}

/** The key the passcode opens (the bundle derives the same with WebCrypto's PBKDF2). */
function passcodeKey(accountId: string, passcode: string): Buffer {
  return pbkdf2Sync(`xchat-device:${passcode}`, `xchat:${accountId}`, WRAP_ITERATIONS, 32, 'sha256')
}

/** The account's chat key sealed with the passcode (base64 of iv, ciphertext and tag). */
export function wrappedChatKey(account: OwnAccount, passcode: string): string {
  const wrapKey = passcodeKey(account.id, passcode)
  const { iv, ct } = encrypt(wrapKey, chatKeyOf(account))
  return Buffer.concat([iv, ct]).toString('base64')
}

export function seal(account: OwnAccount, payload: unknown): Envelope {
  const { iv, ct } = encrypt(chatKeyOf(account), Buffer.from(JSON.stringify(payload)))
  return { v: 1, iv: iv.toString('base64'), ct: ct.toString('base64') }
}

/** The payload of an envelope the account's page sealed; a 400 for anything else. */
export function open(account: OwnAccount, body: unknown): Record<string, unknown> {
  const envelope = body as Partial<Envelope> | null
  if (envelope?.v !== 1 || typeof envelope.iv !== 'string' || typeof envelope.ct !== 'string')
    throw new HttpError(400, 'Expected an encrypted chat payload')
  try {
    const plain = decrypt(
      chatKeyOf(account),
      Buffer.from(envelope.iv, 'base64'),
      Buffer.from(envelope.ct, 'base64'),
    )
    const parsed: unknown = JSON.parse(plain.toString('utf8'))
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
    return parsed as Record<string, unknown>
  } catch {
    throw new HttpError(400, 'The chat payload does not decrypt with this account’s key')
  }
}

/** Plays the page in the sandbox's own tests: unwraps the chat key as the bundle does. */
export function unwrapChatKey(accountId: string, passcode: string, wrapped: string): Buffer {
  const raw = Buffer.from(wrapped, 'base64')
  const wrapKey = passcodeKey(accountId, passcode)
  return decrypt(wrapKey, raw.subarray(0, 12), raw.subarray(12))
}

export function sealWith(key: Buffer, payload: unknown): Envelope {
  const { iv, ct } = encrypt(key, Buffer.from(JSON.stringify(payload)))
  return { v: 1, iv: iv.toString('base64'), ct: ct.toString('base64') }
}

export function openWith(key: Buffer, envelope: Envelope): unknown {
  return JSON.parse(
    decrypt(key, Buffer.from(envelope.iv, 'base64'), Buffer.from(envelope.ct, 'base64')).toString('utf8'),
  )
}
