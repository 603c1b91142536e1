import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import {
  ANON_KEY,
  LOCAL_PUBLISHABLE_KEY,
  SERVICE_ROLE_KEY,
  signHs256,
  stackConfig,
} from '../../src/config.ts'
import { JwtError, loadKeys, USER_TOKEN_KID } from '../src/keys.ts'

describe('gateway keys', async () => {
  const keys = await loadKeys(stackConfig('test'))

  it('verifies the anon and service keys and maps opaque keys to them', async () => {
    expect((await keys.verify(ANON_KEY)).role).toBe('anon')
    expect((await keys.verify(SERVICE_ROLE_KEY)).role).toBe('service_role')
    expect(keys.resolveApiKey(LOCAL_PUBLISHABLE_KEY)).toBe(ANON_KEY)
    expect(keys.resolveApiKey('eyJ.other')).toBe('eyJ.other')
  })

  it('signs ES256 user tokens with the published kid', async () => {
    const token = await keys.signUserToken({ sub: 'u1', role: 'authenticated' }, 60)
    const [header] = token.split('.')
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({
      alg: 'ES256',
      kid: USER_TOKEN_KID,
    })
    expect((await keys.verify(token)).sub).toBe('u1')
    expect(keys.jwks.keys[0]).toMatchObject({ kid: USER_TOKEN_KID, kty: 'EC', crv: 'P-256' })
    expect(keys.jwks.keys[0]).not.toHaveProperty('d')
  })

  it('rejects forged, expired, alg none and unknown-kid tokens', async () => {
    await expect(
      keys.verify(signHs256({ role: 'service_role' }, 'wrong-secret-wrong-secret-wrong-secret')),
    ).rejects.toThrow(JwtError)
    const expired = signHs256({ role: 'anon', exp: Math.floor(Date.now() / 1000) - 10 })
    await expect(keys.verify(expired)).rejects.toThrow(/expired/)
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`
    await expect(keys.verify(none)).rejects.toThrow(JwtError)
    const otherKey = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ])
    const wrongKid = await new SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: 'someone-else' })
      .sign(otherKey.privateKey)
    await expect(keys.verify(wrongKid)).rejects.toThrow(/unknown kid/)
    const sameKidOtherKey = await new SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: USER_TOKEN_KID })
      .sign(otherKey.privateKey)
    await expect(keys.verify(sameKidOtherKey)).rejects.toThrow(/signature is invalid/)
    await expect(keys.verify('not-a-jwt')).rejects.toThrow(/malformed/)
  })
})
