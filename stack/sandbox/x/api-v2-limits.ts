// X API v2's rate limits as docs.x.com lists them (15-minute windows per endpoint per
// authenticated user, plus the DM send endpoint's 24-hour limits: per user, and per app across all
// its users), the x-rate-limit-*, x-user-limit-24hour-* and x-app-limit-24hour-* headers, and X's
// problem-details error bodies.
import type { ServerResponse } from 'node:http'
import { sendJson } from '../social/http.ts'

const FIFTEEN_MINUTES = 15 * 60_000
const DAY = 86_400_000

export const DEFAULT_LIMITS = {
  users_me: 75,
  users_lookup: 900,
  users_by_username: 900,
  dm_send: 200,
  dm_events: 300,
  dm_conversation_events: 300,
} as const

export type Endpoint = keyof typeof DEFAULT_LIMITS

/** POST /2/dm_conversations/with/:id/messages: 1000 per 24 hours per user, beside the 15-minute limit. */
export const DM_SEND_DAILY = 1000
/** …and 15,000 per 24 hours per app, whoever of its users sends. */
export const DM_SEND_APP_DAILY = 15_000

export interface Allowance {
  allowed: boolean
  headers: Record<string, string>
}

/** X's problem-details body (RFC 7807 style) for errors that are not about one parameter. */
export function problem(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
  type = 'about:blank',
): void {
  sendJson(res, status, { title, detail, type, status }, headers)
}

export function invalidRequest(res: ServerResponse, parameter: string, message: string, value: string): void {
  sendJson(res, 400, {
    errors: [{ parameters: { [parameter]: [value] }, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.twitter.com/2/problems/invalid-request',
  })
}

export class RateLimits {
  /** Per endpoint (tests lower them through the control route to reach a 429 quickly). */
  limits: Record<Endpoint, number> = { ...DEFAULT_LIMITS }
  /** The app-wide DM sends per 24 hours (tests lower it through the same control route). */
  appDailyDmSends = DM_SEND_APP_DAILY
  readonly #hits = new Map<string, number[]>()

  constructor(readonly now: () => number) {}

  #window(key: string, size: number, limit: number, count: boolean) {
    const now = this.now()
    const hits = (this.#hits.get(key) ?? []).filter((t) => t > now - size)
    const allowed = hits.length < limit
    if (allowed && count) hits.push(now)
    this.#hits.set(key, hits)
    return {
      allowed,
      remaining: Math.max(0, limit - hits.length),
      reset: Math.ceil(((hits[0] ?? now) + size) / 1000),
    }
  }

  /** Counts one request of this user (on this app) to the endpoint, if its windows allow it. */
  take(endpoint: Endpoint, clientId: string, userId: string): Allowance {
    const key = `${endpoint}:${clientId}:${userId}`
    const appKey = `${endpoint}:${clientId}:app:day`
    const limit = this.limits[endpoint]
    const sending = endpoint === 'dm_send'
    const daily = sending ? this.#window(`${key}:day`, DAY, DM_SEND_DAILY, false) : undefined
    const appDaily = sending ? this.#window(appKey, DAY, this.appDailyDmSends, false) : undefined
    const window = this.#window(
      key,
      FIFTEEN_MINUTES,
      limit,
      daily?.allowed !== false && appDaily?.allowed !== false,
    )
    const headers: Record<string, string> = {
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': String(window.remaining),
      'x-rate-limit-reset': String(window.reset),
    }
    const allowed = window.allowed && daily?.allowed !== false && appDaily?.allowed !== false
    if (daily && appDaily) {
      const counted = allowed ? this.#window(`${key}:day`, DAY, DM_SEND_DAILY, true) : daily
      const appCounted = allowed ? this.#window(appKey, DAY, this.appDailyDmSends, true) : appDaily
      headers['x-user-limit-24hour-limit'] = String(DM_SEND_DAILY)
      headers['x-user-limit-24hour-remaining'] = String(counted.remaining)
      headers['x-user-limit-24hour-reset'] = String(counted.reset)
      headers['x-app-limit-24hour-limit'] = String(this.appDailyDmSends)
      headers['x-app-limit-24hour-remaining'] = String(appCounted.remaining)
      headers['x-app-limit-24hour-reset'] = String(appCounted.reset)
    }
    return { allowed, headers }
  }

  reset(): void {
    this.limits = { ...DEFAULT_LIMITS }
    this.appDailyDmSends = DM_SEND_APP_DAILY
    this.#hits.clear()
  }
}
