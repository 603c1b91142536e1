// Opening X sessions on sandbox accounts for the browser tests.
import type { BrowserPool } from '../../src/browser/pool.ts'
import { parseXCookies } from '../../src/platforms/x/cookies.ts'
import { openXSession, type XSession, type XSessionOptions } from '../../src/platforms/x/session.ts'
import type { SandboxAdmin, XSandboxAccount } from './sandbox.ts'

/** Tests compress typing; waits stay generous because the test machine may be busy. */
export const FAST: Pick<XSessionOptions, 'typing' | 'timeouts'> = {
  typing: { delayFactor: 0 },
  timeouts: { navigationMs: 20_000, operationMs: 60_000, confirmMs: 10_000 },
}

/** For sends that are meant to end uncertain: no need to wait long for a confirmation. */
export const SHORT_CONFIRM: Pick<XSessionOptions, 'timeouts'> = {
  timeouts: { navigationMs: 20_000, operationMs: 60_000, confirmMs: 3_000 },
}

/** Browser suites: concurrent tests share one Chromium, each on its own sandbox accounts. */
export const BROWSER_SUITE = { timeout: 150_000 }

export async function newXAccount(
  admin: SandboxAdmin,
  body: Record<string, unknown> = {},
): Promise<XSandboxAccount> {
  return admin.createAccount<XSandboxAccount>({ passcode: null, ...body })
}

export async function openX(
  admin: SandboxAdmin,
  pool: BrowserPool,
  account: XSandboxAccount,
  options: Partial<XSessionOptions> = {},
): Promise<XSession> {
  const parsed = parseXCookies(account.cookies)
  if (!parsed.ok) throw new Error(parsed.error)
  const result = await openXSession(parsed.value, {
    pool,
    baseUrl: admin.base,
    passcode: account.passcode,
    ...FAST,
    ...options,
  })
  if (result.status !== 'ok') throw new Error(`open failed: ${JSON.stringify(result)}`)
  return result.session
}
