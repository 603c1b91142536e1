// A random key for this browser, kept in localStorage: an OAuth connect (Instagram, X) sends it when
// it starts and when it finishes, and the server finishes only a connect started with the same key.
// A consent link passed to someone else ends in a browser without it, so nothing is connected there.
import { BROWSER_KEY_PATTERN, randomToken } from '@reachflow/domain'

const STORAGE_KEY = 'reachflow.browser-key'

/** This browser's key, made on first use. */
export function browserKey(): string {
  const stored = window.localStorage.getItem(STORAGE_KEY)
  if (stored && BROWSER_KEY_PATTERN.test(stored)) return stored
  const made = randomToken(32)
  window.localStorage.setItem(STORAGE_KEY, made)
  return made
}
