// Who is calling, as resolveCaller decides, with verified tokens cached until they expire (a token is
// verified once, not on every request) and JWT problems in PostgREST's form (401 PGRST301/303).
import type { IncomingMessage } from 'node:http'
import { type Caller, resolveCaller } from '../http.ts'
import { JwtError, type Keys } from '../keys.ts'
import { RestError } from './errors.ts'

interface CachedCaller {
  caller: ResolvedCaller
  expiresAt: number
}

export interface ResolvedCaller extends Caller {
  claimsJson: string
}

const MAX_ENTRIES = 20_000

function jwtError(error: JwtError): RestError {
  const expired = /expired/.test(error.message)
  const message = expired ? 'JWT expired' : error.message
  const code = expired ? 'PGRST303' : 'PGRST301'
  return new RestError(401, code, message, null, null, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  })
}

export class CallerCache {
  /** By API key, then by Authorization header: no key is built from the two per request. */
  private entries = new Map<string, Map<string, CachedCaller>>()
  private size = 0

  constructor(private readonly keys: Keys) {}

  async resolve(req: IncomingMessage): Promise<ResolvedCaller> {
    const authorization = req.headers.authorization ?? ''
    const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : ''
    const now = Date.now()
    const byAuthorization = this.entries.get(apikey)
    const hit = byAuthorization?.get(authorization)
    if (hit && hit.expiresAt > now) return hit.caller
    if (hit && byAuthorization?.delete(authorization)) this.size--
    if (!authorization && !apikey) {
      throw new RestError(
        401,
        'PGRST302',
        'No API key found in request',
        null,
        'No `apikey` request header or url param was found.',
        {
          'WWW-Authenticate': 'Bearer',
        },
      )
    }
    let caller: Caller
    try {
      caller = await resolveCaller(req, this.keys)
    } catch (error) {
      if (error instanceof JwtError) throw jwtError(error)
      throw error
    }
    const claimsJson = JSON.stringify(caller.claims)
    const exp = typeof caller.claims.exp === 'number' ? caller.claims.exp * 1000 : now + 60_000
    if (this.size >= MAX_ENTRIES) {
      this.entries.clear()
      this.size = 0
    }
    const resolved = { ...caller, claimsJson }
    let forKey = this.entries.get(apikey)
    if (!forKey) {
      forKey = new Map()
      this.entries.set(apikey, forKey)
    }
    if (!forKey.has(authorization)) this.size++
    forKey.set(authorization, { caller: resolved, expiresAt: Math.min(exp, now + 10 * 60_000) })
    return resolved
  }
}
