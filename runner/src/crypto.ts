// The Node twin of supabase/functions/_shared/crypto.ts: the runner decrypts the credentials the
// functions sealed (and may seal new ones). Same format, `<keyId>:<base64(iv | ciphertext | tag)>`,
// AES-256-GCM with a 12-byte IV and a 16-byte tag; same env variables. runner/test/crypto.test.ts
// proves each side reads the other's output.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export interface Keyring {
  currentKeyId: string
  keys: ReadonlyMap<string, Buffer>
}

export class EncryptionConfigError extends Error {
  override name = 'EncryptionConfigError'
}

/** The stored value cannot be read: unknown key id, wrong key, or altered data. */
export class DecryptionError extends Error {
  override name = 'DecryptionError'
}

export function parseKeyring(keysSpec: string, currentKeyId: string): Keyring {
  const keys = new Map<string, Buffer>()
  for (const entry of keysSpec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf(':')
    const id = entry.slice(0, separator)
    if (separator < 1 || !KEY_ID.test(id)) {
      throw new EncryptionConfigError('REACHFLOW_ENCRYPTION_KEYS entries must look like "<id>:<base64 key>"')
    }
    if (keys.has(id)) throw new EncryptionConfigError(`Encryption key id "${id}" appears twice`)
    const encoded = entry.slice(separator + 1).trim()
    if (!BASE64.test(encoded)) throw new EncryptionConfigError(`Encryption key "${id}" is not valid base64`)
    const raw = Buffer.from(encoded, 'base64')
    if (raw.length !== 32)
      throw new EncryptionConfigError(`Encryption key "${id}" must be 32 bytes, got ${raw.length}`)
    keys.set(id, raw)
  }
  if (!keys.has(currentKeyId)) {
    throw new EncryptionConfigError(
      `REACHFLOW_ENCRYPTION_KEY_ID "${currentKeyId}" is not in REACHFLOW_ENCRYPTION_KEYS`,
    )
  }
  return { currentKeyId, keys }
}

export function keyringFromEnv(env: NodeJS.ProcessEnv = process.env): Keyring {
  const keys = env.REACHFLOW_ENCRYPTION_KEYS?.trim()
  const current = env.REACHFLOW_ENCRYPTION_KEY_ID?.trim()
  if (!keys || !current)
    throw new EncryptionConfigError('REACHFLOW_ENCRYPTION_KEYS and REACHFLOW_ENCRYPTION_KEY_ID must be set')
  return parseKeyring(keys, current)
}

export function encryptSecret(plaintext: string, keyring: Keyring): string {
  const key = keyring.keys.get(keyring.currentKeyId)
  if (!key) throw new EncryptionConfigError('Current encryption key is missing')
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `${keyring.currentKeyId}:${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64')}`
}

export function keyIdOf(sealed: string): string {
  const separator = sealed.indexOf(':')
  if (separator < 1) throw new DecryptionError('Not an encrypted value')
  return sealed.slice(0, separator)
}

export function decryptSecret(sealed: string, keyring: Keyring): string {
  const keyId = keyIdOf(sealed)
  const key = keyring.keys.get(keyId)
  if (!key) throw new DecryptionError(`Unknown encryption key id "${keyId}"`)
  const encoded = sealed.slice(keyId.length + 1)
  if (!BASE64.test(encoded)) throw new DecryptionError('Encrypted value is not valid base64')
  const bytes = Buffer.from(encoded, 'base64')
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('Encrypted value is too short')
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    })
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES))
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    throw new DecryptionError('Encrypted value was altered or sealed with a different key')
  }
}
