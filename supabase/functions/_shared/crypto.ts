// Encryption of stored credentials (passwords, cookies, passcodes): AES-256-GCM with a random
// 96-bit IV, written as `<keyId>:<base64(iv | ciphertext | 16-byte tag)>`. The key id lets keys
// rotate: new values use REACHFLOW_ENCRYPTION_KEY_ID, old values still decrypt with the key they
// name. The runner decrypts the same format with its Node twin, runner/src/crypto.ts.
//   REACHFLOW_ENCRYPTION_KEYS="k1:<base64 of 32 bytes>,k2:<base64 of 32 bytes>"
//   REACHFLOW_ENCRYPTION_KEY_ID="k2"
import { decodeBase64, encodeBase64 } from './base64.ts'
import { ConfigError, denoEnv, type Env, requireEnv } from './env.ts'

const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/

export interface Keyring {
  currentKeyId: string
  keys: ReadonlyMap<string, CryptoKey>
}

/** The stored value cannot be read: unknown key id, wrong key, or altered data. */
export class DecryptionError extends Error {
  override name = 'DecryptionError'
}

/** Parses the key list; every key must be exactly 32 bytes and the current id must be in it. */
export async function parseKeyring(keysSpec: string, currentKeyId: string): Promise<Keyring> {
  const keys = new Map<string, CryptoKey>()
  for (const entry of keysSpec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf(':')
    const id = entry.slice(0, separator)
    if (separator < 1 || !KEY_ID.test(id))
      throw new ConfigError('REACHFLOW_ENCRYPTION_KEYS entries must look like "<id>:<base64 key>"')
    if (keys.has(id)) throw new ConfigError(`Encryption key id "${id}" appears twice`)
    let raw: Uint8Array<ArrayBuffer>
    try {
      raw = decodeBase64(entry.slice(separator + 1))
    } catch {
      throw new ConfigError(`Encryption key "${id}" is not valid base64`)
    }
    if (raw.byteLength !== 32)
      throw new ConfigError(`Encryption key "${id}" must be 32 bytes, got ${raw.byteLength}`)
    keys.set(id, await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']))
  }
  if (!keys.has(currentKeyId))
    throw new ConfigError(`REACHFLOW_ENCRYPTION_KEY_ID "${currentKeyId}" is not in REACHFLOW_ENCRYPTION_KEYS`)
  return { currentKeyId, keys }
}

let cached: { spec: string; keyring: Promise<Keyring> } | undefined

export async function keyringFromEnv(env: Env = denoEnv): Promise<Keyring> {
  const keys = requireEnv('REACHFLOW_ENCRYPTION_KEYS', env)
  const current = requireEnv('REACHFLOW_ENCRYPTION_KEY_ID', env)
  const spec = `${current}|${keys}`
  if (cached?.spec !== spec) cached = { spec, keyring: parseKeyring(keys, current) }
  return cached.keyring
}

export async function encryptSecret(plaintext: string, keyring?: Keyring): Promise<string> {
  const ring = keyring ?? (await keyringFromEnv())
  const key = ring.keys.get(ring.currentKeyId)
  if (!key) throw new ConfigError('Current encryption key is missing')
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plaintext)),
  )
  const out = new Uint8Array(IV_BYTES + sealed.byteLength)
  out.set(iv)
  out.set(sealed, IV_BYTES) // WebCrypto already appends the tag: ciphertext | tag
  return `${ring.currentKeyId}:${encodeBase64(out)}`
}

/** The key id a stored value was sealed with (to find values still on an old key). */
export function keyIdOf(sealed: string): string {
  const separator = sealed.indexOf(':')
  if (separator < 1) throw new DecryptionError('Not an encrypted value')
  return sealed.slice(0, separator)
}

export async function decryptSecret(sealed: string, keyring?: Keyring): Promise<string> {
  const ring = keyring ?? (await keyringFromEnv())
  const keyId = keyIdOf(sealed)
  const key = ring.keys.get(keyId)
  if (!key) throw new DecryptionError(`Unknown encryption key id "${keyId}"`)
  let bytes: Uint8Array<ArrayBuffer>
  try {
    bytes = decodeBase64(sealed.slice(keyId.length + 1))
  } catch {
    throw new DecryptionError('Encrypted value is not valid base64')
  }
  if (bytes.byteLength < IV_BYTES + TAG_BYTES) throw new DecryptionError('Encrypted value is too short')
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES) },
      key,
      bytes.subarray(IV_BYTES),
    )
    return new TextDecoder().decode(plain)
  } catch {
    throw new DecryptionError('Encrypted value was altered or sealed with a different key')
  }
}

/** Re-seals a value under the current key when it names an older one (for key rotation). */
export async function reencryptSecret(sealed: string, keyring?: Keyring): Promise<string> {
  const ring = keyring ?? (await keyringFromEnv())
  if (keyIdOf(sealed) === ring.currentKeyId) return sealed
  return encryptSecret(await decryptSecret(sealed, ring), ring)
}
