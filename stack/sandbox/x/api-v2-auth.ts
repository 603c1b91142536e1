// What every X API v2 call of the sandbox checks first: the bearer's grant (valid, not revoked or
// expired, its account not signed out), the endpoint's per-user rate limit, the scopes it needs and
// a locked account; and the numeric ids DM events carry.
import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { Request } from '../social/http.ts'
import type { Messaging } from '../social/messaging.ts'
import type { Message, OwnAccount } from '../social/state.ts'
import { X_ERRORS } from './accounts.ts'
import { type Endpoint, problem, type RateLimits } from './api-v2-limits.ts'
import type { Grant, OAuthStore } from './oauth-store.ts'

export const SCOPES = {
  users: ['tweet.read', 'users.read'],
  dmRead: ['dm.read', 'tweet.read', 'users.read'],
  dmWrite: ['dm.write', 'dm.read', 'tweet.read', 'users.read'],
}

/** Direct Message event ids are numeric (snowflakes); the sandbox derives a stable one per message. */
export function eventIdOf(message: Message): string {
  return BigInt(`0x${createHash('sha256').update(message.id).digest('hex').slice(0, 15)}`).toString()
}

export interface Caller {
  grant: Grant
  account: OwnAccount
  headers: Record<string, string>
}

export interface XApiContext {
  messaging: Messaging
  store: OAuthStore
  limits: RateLimits
}

/** The bearer's grant and account, its scopes and the endpoint's rate limit, or X's answer. */
export function caller(
  ctx: XApiContext,
  req: Request,
  res: ServerResponse,
  endpoint: Endpoint,
  scopes: string[],
): Caller | undefined {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
  const grant = ctx.store.liveGrant(token)
  const account = grant ? ctx.messaging.world.accounts.get(grant.accountId) : undefined
  if (!grant || !account || account.state === 'expired') {
    problem(res, 401, 'Unauthorized', 'Unauthorized')
    return undefined
  }
  const allowance = ctx.limits.take(endpoint, grant.clientId, account.id)
  if (!allowance.allowed) {
    problem(res, 429, 'Too Many Requests', 'Too Many Requests', allowance.headers)
    return undefined
  }
  if (!scopes.every((s) => grant.scopes.includes(s))) {
    problem(res, 403, 'Forbidden', 'Forbidden', allowance.headers)
    return undefined
  }
  if (account.state === 'locked') {
    problem(res, 403, 'Forbidden', X_ERRORS[326].message, allowance.headers)
    return undefined
  }
  return { grant, account, headers: allowance.headers }
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  res.end(JSON.stringify(body))
}

/** A comma-separated list parameter, checked against the allowed values (else X's 400). */
