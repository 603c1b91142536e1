// An official X account's OAuth grant as the runner holds it: user-context calls to X API v2 with
// its access token, one refresh when X says 401 (or the token is about to expire), and the rotated
// tokens sealed and saved BEFORE they are used: X's refresh tokens work once, so tokens the runner
// used but did not keep would lose the account. The last rate-limit answer per endpoint is kept so
// a spent window is waited out without calling X again. What X bills the customer's app for each
// answer is recorded (x-api-usage.ts) before the answer is used.
import {
  type ApiAnswer,
  type RateLimit,
  type XApiClient,
  type XOfficialCredentials,
  xApiCall,
  xTokenCall,
} from '@reachflow/domain'
import { encryptSecret, type Keyring } from '../../crypto.ts'
import type { Queryable } from '../../db.ts'
import { recordXApiUsage } from './x-api-usage.ts'

/** Refresh this long before expiry rather than spend a call on a 401. */
const REFRESH_EARLY_MS = 60_000
/** A call X has not answered by then is given up (a send is then uncertain). */
export const X_API_CALL_MS = 30_000

export interface GrantOptions {
  accountId: string
  /** The account's X user id: reading it is an owned read, billed less. */
  selfId: string
  credentials: XOfficialCredentials
  client: XApiClient
  db: Queryable
  keyring: Keyring
  now: () => number
}

export type Endpoint = 'send' | 'read' | 'users'

export class XApiGrant {
  #credentials: XOfficialCredentials
  readonly #rates = new Map<Endpoint, RateLimit>()

  constructor(readonly options: GrantOptions) {
    this.#credentials = options.credentials
  }

  /** When a spent window of the endpoint resets (ms), if it is spent now. */
  waitUntil(endpoint: Endpoint): number | null {
    const rate = this.#rates.get(endpoint)
    return rate && rate.remaining <= 0 && rate.resetAt > this.options.now() ? rate.resetAt : null
  }

  /** One call; a 401 gets one refresh (saved first) and one retry. Throws when X cannot be reached. */
  async call<T>(
    endpoint: Endpoint,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<ApiAnswer<T>> {
    if (this.#credentials.expiresAt - REFRESH_EARLY_MS <= this.options.now()) await this.refresh()
    let answer = await this.#once<T>(method, path, body)
    if (answer.status === 401 && (await this.refresh())) answer = await this.#once<T>(method, path, body)
    if (answer.rate) this.#rates.set(endpoint, answer.rate)
    else if (answer.status === 429)
      this.#rates.set(endpoint, { limit: 0, remaining: 0, resetAt: this.options.now() + 15 * 60_000 })
    await recordXApiUsage(this.options, { method, path, answer })
    return answer
  }

  #once<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> {
    return xApiCall<T>(
      this.options.client,
      this.#credentials.accessToken,
      method,
      path,
      body,
      AbortSignal.timeout(X_API_CALL_MS),
    )
  }

  /** Rotates the tokens; false when X refuses the refresh token (the customer must connect again). */
  async refresh(): Promise<boolean> {
    const current = this.#credentials
    const answer = await xTokenCall(
      this.options.client,
      { clientId: current.clientId, clientSecret: current.clientSecret },
      '/2/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: current.refreshToken },
    )
    if (!answer.ok)
      return answer.status >= 500
        ? Promise.reject(new Error(`X refresh failed: HTTP ${answer.status}`))
        : false
    const next: XOfficialCredentials = {
      ...current,
      accessToken: answer.tokens.access_token,
      refreshToken: answer.tokens.refresh_token ?? current.refreshToken,
      expiresAt: this.options.now() + answer.tokens.expires_in * 1000,
      scopes: answer.tokens.scope.split(' '),
    }
    // kept in memory first: if saving fails the job fails before using them, and the next refresh
    // of this session (with the token X now expects) saves again
    this.#credentials = next
    const { keyring } = this.options
    await this.options.db.query('select public.save_official_credentials($1, $2, $3)', [
      this.options.accountId,
      keyring.currentKeyId,
      encryptSecret(JSON.stringify(next), keyring),
    ])
    return true
  }
}
