// The runner must read what the functions seal and the other way round: the same values go
// through the Deno module (supabase/functions/_shared/crypto.ts, run by the real deno binary) and
// this Node twin, in both directions, with the local development keyring and a rotated one.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../stack/src/config.ts'
import { LOCAL_ENCRYPTION_KEY_ID, LOCAL_ENCRYPTION_KEYS } from '../../stack/src/functions-env.ts'
import {
  DecryptionError,
  decryptSecret,
  EncryptionConfigError,
  encryptSecret,
  keyIdOf,
  keyringFromEnv,
  parseKeyring,
} from '../src/crypto.ts'

const denoModule = pathToFileURL(join(repoRoot, 'supabase', 'functions', '_shared', 'crypto.ts')).href

/** Runs `op` on each input in Deno with the given keyring env; returns Deno's outputs. */
function inDeno(
  op: 'encryptSecret' | 'decryptSecret',
  inputs: string[],
  keys: string,
  keyId: string,
): string[] {
  const script = `
    import { ${op}, keyringFromEnv } from '${denoModule}'
    const inputs = JSON.parse(Deno.env.get('CRYPTO_INPUTS') ?? '[]')
    const ring = await keyringFromEnv()
    const out = []
    for (const input of inputs) out.push(await ${op}(input, ring))
    console.log(JSON.stringify(out))`
  const output = execFileSync(join(repoRoot, 'node_modules', '.bin', 'deno'), ['eval', '--quiet', script], {
    env: {
      ...process.env,
      CRYPTO_INPUTS: JSON.stringify(inputs),
      REACHFLOW_ENCRYPTION_KEYS: keys,
      REACHFLOW_ENCRYPTION_KEY_ID: keyId,
      NO_COLOR: '1',
    },
    encoding: 'utf8',
    cwd: repoRoot,
  })
  return JSON.parse(output.trim().split('\n').at(-1) ?? '[]') as string[]
}

const SECRETS = [
  'hunter2',
  '[{"name":"auth_token","value":"a1b2"},{"name":"ct0","value":"c3d4"}]',
  'ünïcødé ✓ 🔐',
  '',
]

describe('crypto twins', () => {
  it('Deno seals, Node opens (local development keyring)', () => {
    const sealed = inDeno('encryptSecret', SECRETS, LOCAL_ENCRYPTION_KEYS, LOCAL_ENCRYPTION_KEY_ID)
    const ring = parseKeyring(LOCAL_ENCRYPTION_KEYS, LOCAL_ENCRYPTION_KEY_ID)
    expect(sealed.map((s) => keyIdOf(s))).toEqual(SECRETS.map(() => LOCAL_ENCRYPTION_KEY_ID))
    expect(sealed.map((s) => decryptSecret(s, ring))).toEqual(SECRETS)
  })

  it('Node seals, Deno opens, also across a key rotation', () => {
    const oldKey = `old:${randomBytes(32).toString('base64')}`
    const newKey = `new:${randomBytes(32).toString('base64')}`
    const before = SECRETS.map((s) => encryptSecret(s, parseKeyring(oldKey, 'old')))
    const after = SECRETS.map((s) => encryptSecret(s, parseKeyring(`${oldKey},${newKey}`, 'new')))
    expect(after.every((s) => s.startsWith('new:'))).toBe(true)
    expect(inDeno('decryptSecret', [...before, ...after], `${oldKey},${newKey}`, 'new')).toEqual([
      ...SECRETS,
      ...SECRETS,
    ])
  })

  it('refuses altered values, unknown key ids and bad keys in Node too', () => {
    const ring = keyringFromEnv({
      REACHFLOW_ENCRYPTION_KEYS: LOCAL_ENCRYPTION_KEYS,
      REACHFLOW_ENCRYPTION_KEY_ID: LOCAL_ENCRYPTION_KEY_ID,
    })
    const sealed = encryptSecret('secret', ring)
    const bytes = Buffer.from(sealed.slice(sealed.indexOf(':') + 1), 'base64')
    bytes[20] = (bytes[20] ?? 0) ^ 0xff
    expect(() => decryptSecret(`${LOCAL_ENCRYPTION_KEY_ID}:${bytes.toString('base64')}`, ring)).toThrow(
      DecryptionError,
    )
    expect(() => decryptSecret(sealed.replace(/^[^:]+/, 'gone'), ring)).toThrow(
      /Unknown encryption key id "gone"/,
    )
    expect(() => parseKeyring(`k:${randomBytes(31).toString('base64')}`, 'k')).toThrow(/must be 32 bytes/)
    expect(() => keyringFromEnv({})).toThrow(EncryptionConfigError)
  })
})
