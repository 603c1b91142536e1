// Opening X sessions on sandbox accounts for the browser tests.
import type { BrowserPool } from '../../src/browser/pool.ts'
import { parseXCookies } from '../../src/platforms/x/cookies.ts'
import { openXSession, type XSession, type XSessionOptions } from '../../src/platforms/x/session.ts'
import type { SandboxAdmin, XSandboxAccount } from './sandbox.ts'

/** Tests compress typing and use short waits so a failure shows quickly. */
export const FAST: Pick<XSessionOptions, 'typing' | 'timeouts'> = {
  typing: { delayFactor: 0 },
  timeouts: { navigationMs: 10_000, operationMs: 30_000, confirmMs: 5_000 },
}

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
