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
  private entries = new Map<string, CachedCaller>()

  constructor(private readonly keys: Keys) {}

  async resolve(req: IncomingMessage): Promise<ResolvedCaller> {
    const authorization = req.headers.authorization ?? ''
    const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : ''
    const cacheKey = `${authorization}\u0000${apikey}`
    const now = Date.now()
    const hit = this.entries.get(cacheKey)
    if (hit && hit.expiresAt > now) return hit.caller
    if (hit) this.entries.delete(cacheKey)
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
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear()
    const resolved = { ...caller, claimsJson }
    this.entries.set(cacheKey, { caller: resolved, expiresAt: Math.min(exp, now + 10 * 60_000) })
    return resolved
  }
}
