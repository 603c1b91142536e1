// The HTTP check of X cookies (no browser), shared with the edge functions: since cookie sessions get
// 404 from verify_credentials it can only tell "signed out", "locked" or "not rejected"; the account
// test in the browser is what proves a session. Here it reads its paths from the adapter's facts.
import { verifyXCookies as verifyOverHttp, type XVerifyResult } from '@reachflow/x-verify'
import type { ParsedXCookies } from './cookies.ts'
import { X_FACTS, type XFacts } from './facts.ts'

export type { XVerifyResult } from '@reachflow/x-verify'

export interface VerifyOptions {
  baseUrl?: string
  /** A fetch that goes through the account's proxy, when it has one. */
  fetch?: typeof fetch
  timeoutMs?: number
  facts?: XFacts
}

export function verifyXCookies(parsed: ParsedXCookies, options: VerifyOptions = {}): Promise<XVerifyResult> {
  const facts = options.facts ?? X_FACTS
  return verifyOverHttp(parsed, {
    baseUrl: options.baseUrl ?? facts.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    paths: { home: facts.paths.home, signedOut: facts.urlSigns.signedOut, locked: facts.urlSigns.locked },
  })
}
