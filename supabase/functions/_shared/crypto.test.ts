import assert from 'node:assert/strict'
import { decodeBase64, encodeBase64 } from './base64.ts'
import {
  DecryptionError,
  decryptSecret,
  encryptSecret,
  keyIdOf,
  keyringFromEnv,
  parseKeyring,
  reencryptSecret,
} from './crypto.ts'
import { ConfigError, envFrom } from './env.ts'

const key = (fill: number) => encodeBase64(new Uint8Array(32).fill(fill))
const K1 = `k1:${key(1)}`
const K2 = `k2:${key(2)}`

Deno.test('round-trips text (including non-ASCII) in the keyId:base64(iv|ciphertext|tag) format', async () => {
  const ring = await parseKeyring(K1, 'k1')
  const secret = '[{"name":"auth_token","value":"abc"}] passcode: 1234 — ünïcødé'
  const sealed = await encryptSecret(secret, ring)
  assert.match(sealed, /^k1:[A-Za-z0-9+/]+=*$/)
  assert.equal(
    decodeBase64(sealed.slice(3)).byteLength,
    12 + new TextEncoder().encode(secret).byteLength + 16,
  )
  assert.equal(await decryptSecret(sealed, ring), secret)
  assert.notEqual(await encryptSecret(secret, ring), sealed, 'a fresh IV each time')
})

Deno.test('rotation: new values use the current key, old ones still decrypt by their key id', async () => {
  const old = await encryptSecret('old secret', await parseKeyring(K1, 'k1'))
  const rotated = await parseKeyring(`${K1},${K2}`, 'k2')
  assert.equal(await decryptSecret(old, rotated), 'old secret')
  const fresh = await encryptSecret('new secret', rotated)
  assert.equal(keyIdOf(fresh), 'k2')
  const resealed = await reencryptSecret(old, rotated)
  assert.equal(keyIdOf(resealed), 'k2')
  assert.equal(await decryptSecret(resealed, await parseKeyring(K2, 'k2')), 'old secret')
  assert.equal(await reencryptSecret(fresh, rotated), fresh)
})

Deno.test('altered data, a wrong key or an unknown key id never decrypt', async () => {
  const ring = await parseKeyring(K1, 'k1')
  const sealed = await encryptSecret('secret', ring)
  const bytes = decodeBase64(sealed.slice(3))
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1
  await assert.rejects(decryptSecret(`k1:${encodeBase64(bytes)}`, ring), DecryptionError)
  const impostor = await parseKeyring(`k1:${key(9)}`, 'k1')
  await assert.rejects(decryptSecret(sealed, impostor), /altered or sealed with a different key/)
  await assert.rejects(decryptSecret(sealed.replace('k1:', 'k7:'), ring), /Unknown encryption key id "k7"/)
  await assert.rejects(decryptSecret('k1:###', ring), /not valid base64/)
  await assert.rejects(decryptSecret('k1:AAAA', ring), /too short/)
  await assert.rejects(decryptSecret('plaintext', ring), /Not an encrypted value/)
})

Deno.test('bad key configuration is refused with a clear ConfigError', async () => {
  await assert.rejects(
    parseKeyring(`k1:${encodeBase64(new Uint8Array(16))}`, 'k1'),
    /must be 32 bytes, got 16/,
  )
  await assert.rejects(parseKeyring(K1, 'k2'), /"k2" is not in REACHFLOW_ENCRYPTION_KEYS/)
  await assert.rejects(parseKeyring(`${K1},${K1}`, 'k1'), /appears twice/)
  await assert.rejects(parseKeyring('no-colon', 'k1'), ConfigError)
  await assert.rejects(parseKeyring('k1:%%%', 'k1'), /not valid base64/)
  await assert.rejects(
    keyringFromEnv(envFrom({ REACHFLOW_ENCRYPTION_KEYS: K1 })),
    /REACHFLOW_ENCRYPTION_KEY_ID is not set/,
  )
  const fromEnv = await keyringFromEnv(
    envFrom({ REACHFLOW_ENCRYPTION_KEYS: `${K1}, ${K2}`, REACHFLOW_ENCRYPTION_KEY_ID: 'k2' }),
  )
  assert.deepEqual([...fromEnv.keys.keys()], ['k1', 'k2'])
})
