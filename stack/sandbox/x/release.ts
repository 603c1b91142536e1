// X's web release as its internal GraphQL sees it: query ids that change with every release (and
// every sandbox start), found only in the bundle the page loads, and the x-client-transaction-id
// header that only that bundle computes. As on x.com, the header carries the page's verification
// key (a <meta> of the HTML) and a hash over method, URL path, time and a secret of the release;
// a call with a stale query id, or without a valid header, is answered 404 with an empty body.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const GRAPHQL_OPERATIONS = ['UserByScreenName', 'Followers', 'Following', 'SearchTimeline'] as const
export type GraphqlOperation = (typeof GRAPHQL_OPERATIONS)[number]

/** X counts transaction time in seconds from this moment (public generators use the same). */
export const TRANSACTION_EPOCH_MS = 1_682_924_400_000
/** A transaction id older or newer than this is refused (a page left open for a day must reload). */
const MAX_SKEW_S = 24 * 3600
const KEY_BYTES = 48
const HASH_BYTES = 16

export interface Release {
  /** Names the bundles: main.<id>.js. */
  id: string
  queryIds: Record<GraphqlOperation, string>
  /** Mixed into every transaction hash; only the release's bundle holds it. */
  salt: Buffer
}

function newRelease(): Release {
  const queryId = () => randomBytes(16).toString('base64url').slice(0, 22)
  return {
    id: randomBytes(4).toString('hex'),
    queryIds: Object.fromEntries(GRAPHQL_OPERATIONS.map((op) => [op, queryId()])) as Release['queryIds'],
    salt: randomBytes(16),
  }
}

export class Releases {
  current: Release = newRelease()
  /** Signs the verification keys handed to pages; new at every start, like the release. */
  readonly #secret = randomBytes(32)

  /** A new web release: new query ids and transaction salt; pages of the old one start failing. */
  rotate(): Release {
    this.current = newRelease()
    return this.current
  }

  /** The `twitter-site-verification` key of one page load: a nonce and the sandbox's MAC of it. */
  pageKey(): string {
    const nonce = randomBytes(16)
    return Buffer.concat([nonce, this.#mac(nonce)]).toString('base64')
  }

  #mac(nonce: Buffer): Buffer {
    return createHmac('sha256', this.#secret).update(nonce).digest()
  }

  /** Whether a GraphQL call may be answered: the current query id and a valid transaction id. */
  accepts(operation: string, queryId: string, method: string, path: string, header: unknown): boolean {
    const ids = this.current.queryIds as Record<string, string>
    if (ids[operation] !== queryId) return false
    return typeof header === 'string' && this.#validTransaction(header, method, path)
  }

  #validTransaction(header: string, method: string, path: string): boolean {
    const raw = Buffer.from(header, 'base64')
    if (raw.length !== 1 + KEY_BYTES + 4 + HASH_BYTES + 1) return false
    const mask = raw[0] ?? 0
    const bytes = Buffer.from(raw.subarray(1).map((b) => b ^ mask))
    const key = bytes.subarray(0, KEY_BYTES)
    const nonce = key.subarray(0, 16)
    if (!timingSafeEqual(key.subarray(16), this.#mac(nonce))) return false
    const time = bytes.readUInt32BE(KEY_BYTES)
    const now = Math.floor((Date.now() - TRANSACTION_EPOCH_MS) / 1000)
    if (Math.abs(now - time) > MAX_SKEW_S) return false
    const hash = bytes.subarray(KEY_BYTES + 4, KEY_BYTES + 4 + HASH_BYTES)
    return timingSafeEqual(hash, transactionHash(method, path, time, this.current.salt, key))
  }
}

/** The hash a transaction id carries (the bundle computes the same with WebCrypto). */
export function transactionHash(method: string, path: string, time: number, salt: Buffer, key: Buffer) {
  return createHash('sha256')
    .update(`${method.toUpperCase()}!${path}!${time}`)
    .update(salt)
    .update(key)
    .digest()
    .subarray(0, HASH_BYTES)
}

/** What the page's bundle sends (for the sandbox's own tests, which play the page). */
export function transactionIdFor(
  release: Release,
  pageKey: string,
  method: string,
  path: string,
  nowMs = Date.now(),
): string {
  const key = Buffer.from(pageKey, 'base64')
  const time = Math.floor((nowMs - TRANSACTION_EPOCH_MS) / 1000)
  const timeBytes = Buffer.alloc(4)
  timeBytes.writeUInt32BE(time)
  const payload = Buffer.concat([
    key,
    timeBytes,
    transactionHash(method, path, time, release.salt, key),
    Buffer.from([3]),
  ])
  const mask = randomBytes(1)[0] ?? 0
  return Buffer.concat([Buffer.from([mask]), payload.map((b) => b ^ mask)])
    .toString('base64')
    .replace(/=+$/, '')
}
