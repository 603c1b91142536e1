// An OAuth connect (Instagram, X) is bound to the browser that started it, beside the customer's
// session: the web app keeps a random key for this browser (localStorage) and sends it when a
// connect starts and when it finishes; only the hash of state and key together is stored. A consent
// link passed to someone else ends in a browser without that key (and without the customer's
// session), so its callback finds nothing to finish and nothing is connected.
import { sha256Hex } from './x-api.ts'

/** This browser's key, as the web app makes it (randomToken(32): 43 URL-safe characters). */
export const BROWSER_KEY_PATTERN = /^[A-Za-z0-9_-]{32,128}$/

/** At most this many connects per customer and platform may wait for the platform's answer. */
export const MAX_PENDING_CONNECTS = 5

/** What is stored for a connect: the SHA-256 of its state and the starting browser's key. */
export const boundStateHash = (state: string, browserKey: string) => sha256Hex(`${state}\n${browserKey}`)
