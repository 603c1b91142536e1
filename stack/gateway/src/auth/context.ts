// What every /auth/v1 endpoint needs: the parsed JSON body, the API key check the gateway does in
// front of GoTrue, the signed-in user behind a Bearer token, and the client's IP and user agent.
import type { JWTPayload } from 'jose'
import { type GatewayContext, type GatewayRequest, HttpError } from '../http.ts'
import { JwtError } from '../keys.ts'
import { AuthError } from './errors.ts'
import type { GuessGuard } from './guessing.ts'
import type { RateLimitSettings, SlidingWindow } from './rate-limit.ts'
import { clientIp } from './rate-limit.ts'
import type { SessionMeta } from './sessions.ts'
import { sessionIsActive } from './sessions.ts'

export interface AuthLimits {
  settings: RateLimitSettings
  perIp: SlidingWindow
  /** Failed passwords, keyed by client IP and e-mail. */
  perIpAndEmail: SlidingWindow
  /** /verify attempts per client IP. */
  verifyPerIp: SlidingWindow
  /** Wrong codes and token hashes: the flood budget and the backoff of guessing sources. */
  guesses: GuessGuard
  /** Recovery mails per address, known or not. */
  resends: SlidingWindow
}

export interface AuthCall {
  request: GatewayRequest
  ctx: GatewayContext
  limits: AuthLimits
  meta: SessionMeta
}

export function sessionMeta(request: GatewayRequest, settings: RateLimitSettings): SessionMeta {
  const agent = request.req.headers['user-agent']
  return {
    ip: clientIp(request.req, settings.trustedProxies),
    userAgent: typeof agent === 'string' ? agent : '',
  }
}

/** The JSON body as an object ({} when empty); malformed JSON → 400 bad_json. */
export async function readBody(request: GatewayRequest): Promise<Record<string, unknown>> {
  let raw: string
  try {
    raw = (await request.body()).toString('utf8')
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) {
      throw new AuthError(413, 'request_entity_too_large', 'Request body is too large')
    }
    throw error
  }
  if (raw.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${(error as Error).message}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected an object')
  }
  return parsed as Record<string, unknown>
}

export const stringField = (body: Record<string, unknown>, name: string): string | undefined => {
  const value = body[name]
  return typeof value === 'string' ? value : undefined
}

/** The API gateway's key check: `apikey` must be the project's anon or service key (or an sb_ key). */
export async function requireApiKey(call: AuthCall): Promise<void> {
  const header = call.request.req.headers.apikey
  const value = typeof header === 'string' ? header : call.request.url.searchParams.get('apikey')
  if (!value) throw new AuthError(401, 'no_api_key', 'No API key found in request')
  try {
    const claims = await call.ctx.keys.verify(call.ctx.keys.resolveApiKey(value))
    if (claims.role === 'anon' || claims.role === 'service_role') return
  } catch {
    // falls through to the same answer as a wrong role
  }
  throw new AuthError(401, 'invalid_api_key', 'Invalid API key')
}

function bearerToken(call: AuthCall): string | undefined {
  const header = call.request.req.headers.authorization
  if (!header?.toLowerCase().startsWith('bearer ')) return undefined
  const token = header.slice(7).trim()
  return token ? call.ctx.keys.resolveApiKey(token) : undefined
}

/** The verified claims of the Bearer token, whatever its role. */
export async function requireClaims(call: AuthCall): Promise<JWTPayload> {
  const token = bearerToken(call)
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  try {
    return await call.ctx.keys.verify(token)
  } catch (error) {
    if (!(error instanceof JwtError)) throw error
    const reason = error.message.startsWith('invalid JWT')
      ? error.message
      : `invalid JWT: unable to parse or verify signature, ${error.message}`
    throw new AuthError(403, 'bad_jwt', reason)
  }
}

export interface SignedInUser {
  userId: string
  sessionId: string
  claims: JWTPayload
}

/** The user behind a user access token whose session still exists. */
export async function requireUser(call: AuthCall): Promise<SignedInUser> {
  const claims = await requireClaims(call)
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim')
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : ''
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  if (
    !uuid.test(sessionId) ||
    !uuid.test(claims.sub) ||
    !(await sessionIsActive(call.ctx.adminPool, sessionId, claims.sub))
  ) {
    throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
  }
  return { userId: claims.sub, sessionId, claims }
}

/** Admin endpoints: the Bearer token must carry the service_role role. */
export async function requireServiceRole(call: AuthCall): Promise<void> {
  const claims = await requireClaims(call)
  if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') {
    throw new AuthError(403, 'not_admin', 'User not allowed')
  }
}
