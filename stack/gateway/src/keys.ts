// The gateway's keys, as a local Supabase has them: HS256 anon/service_role keys signed with the
// JWT secret, opaque sb_publishable_/sb_secret_ keys mapped to them, and an ES256 key (with a fixed
// kid, kept under .stack/<instance>/keys) that signs user access tokens and is published as JWKS.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type CryptoKey,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose'
import { ensureDir, type StackConfig } from '../../src/config.ts'

export const USER_TOKEN_KID = 'reachflow-local-es256'

export interface Keys {
  signUserToken(claims: JWTPayload, expiresInSeconds: number): Promise<string>
  /** Verifies an HS256 (secret) or ES256 (kid) token; throws JwtError with the reason. */
  verify(token: string): Promise<JWTPayload>
  jwks: { keys: JWK[] }
  /** The JWT the gateway should act with for an apikey/Bearer value (opaque keys → legacy JWTs). */
  resolveApiKey(value: string): string
}

export class JwtError extends Error {
  override name = 'JwtError'
}

async function loadOrCreateEs256(config: StackConfig): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const dir = ensureDir(join(config.dir, 'keys'))
  const file = join(dir, 'jwt-es256.json')
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'))
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const privateJwk = { ...(await exportJWK(privateKey)), kid: USER_TOKEN_KID, alg: 'ES256', use: 'sig' }
  const publicJwk = { ...(await exportJWK(publicKey)), kid: USER_TOKEN_KID, alg: 'ES256', use: 'sig' }
  writeFileSync(file, JSON.stringify({ privateJwk, publicJwk }), { mode: 0o600 })
  return { privateJwk, publicJwk }
}

export async function loadKeys(config: StackConfig): Promise<Keys> {
  const { privateJwk, publicJwk } = await loadOrCreateEs256(config)
  const privateKey = (await importJWK(privateJwk, 'ES256')) as CryptoKey
  const publicKey = (await importJWK(publicJwk, 'ES256')) as CryptoKey
  const secret = new TextEncoder().encode(config.jwtSecret)
  const opaque = new Map([
    [config.publishableKey, config.anonKey],
    [config.secretKey, config.serviceRoleKey],
  ])

  return {
    jwks: { keys: [publicJwk] },
    async signUserToken(claims, expiresInSeconds) {
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: USER_TOKEN_KID, typ: 'JWT' })
        .setIssuedAt(now)
        .setExpirationTime(now + expiresInSeconds)
        .setIssuer(`${config.apiUrl}/auth/v1`)
        .sign(privateKey)
    },
    async verify(token) {
      let header: ReturnType<typeof decodeProtectedHeader>
      try {
        header = decodeProtectedHeader(token)
      } catch {
        throw new JwtError('invalid JWT: unable to parse or verify signature, token is malformed')
      }
      try {
        if (header.alg === 'HS256') return (await jwtVerify(token, secret, { algorithms: ['HS256'] })).payload
        if (header.alg === 'ES256' && header.kid === USER_TOKEN_KID) {
          return (await jwtVerify(token, publicKey, { algorithms: ['ES256'] })).payload
        }
      } catch (error) {
        const code = (error as { code?: string }).code
        if (code === 'ERR_JWT_EXPIRED') throw new JwtError('token has invalid claims: token is expired')
        throw new JwtError('invalid JWT: unable to parse or verify signature, signature is invalid')
      }
      throw new JwtError(`invalid JWT: unable to parse or verify signature, unsupported alg or unknown kid`)
    },
    resolveApiKey(value) {
      return opaque.get(value) ?? value
    },
  }
}
