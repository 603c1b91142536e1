// Test helpers: the sandboxes' admin API (accounts, faults, behaviour, delivery log, profiles)
// at the URLs the test stack passes in (X_BASE_URL, INSTAGRAM_BASE_URL).

export function sandboxUrl(name: 'X_BASE_URL' | 'INSTAGRAM_BASE_URL'): string {
  const url = process.env[name]
  if (!url) throw new Error(`${name} is not set: run the tests with \`npm test\` (it starts the sandboxes).`)
  return url.replace(/\/$/, '')
}

export class SandboxAdmin {
  constructor(readonly base: string) {}

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.base}/__sandbox${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json = (await response.json()) as T
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`)
    return json
  }

  createAccount<T = Record<string, unknown>>(body: Record<string, unknown> = {}): Promise<T> {
    return this.call<T>('POST', '/accounts', body)
  }

  patchAccount(username: string, body: Record<string, unknown>) {
    return this.call('PATCH', `/accounts/${encodeURIComponent(username)}`, body)
  }

  fault(body: Record<string, unknown>) {
    return this.call('POST', '/faults', body)
  }

  async deliveries(
    account: string,
  ): Promise<{ id: string; text: string; recipientUsername: string; threadId: string }[]> {
    const { deliveries } = await this.call<{
      deliveries: { id: string; text: string; recipientUsername: string; threadId: string }[]
    }>('GET', `/deliveries?account=${encodeURIComponent(account)}`)
    return deliveries
  }

  async profiles(query: Record<string, string | number | boolean>): Promise<SandboxProfile[]> {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))
    return (await this.call<{ profiles: SandboxProfile[] }>('GET', `/profiles?${params}`)).profiles
  }

  message(body: { account: string; from: string; text: string; delayMs?: number }) {
    return this.call('POST', '/messages', body)
  }

  async clock(): Promise<{ now: number; offsetMs: number }> {
    return this.call('GET', '/clock')
  }
}

export interface SandboxProfile {
  id: string
  username: string
  name: string
  bio: string
  followers: number
  following: number
  canDm: boolean
  protected: boolean
  verifiedOnlyRequests: boolean
  professional: string | null
  topics: string[]
}

export interface XSandboxAccount {
  id: string
  username: string
  passcode: string | null
  cookies: Record<string, unknown>[]
  cookieHeader: string
}

export interface IgSandboxAccount {
  id: string
  username: string
  password: string
  totpSecret: string | null
}

/** The sandbox answers at most this many profiles a call. */
const PROFILES_PAGE = 500

/** Messageable profiles: DMs open, no verified-only requests, public (paged past the sandbox's 500). */
export async function openProfiles(
  admin: SandboxAdmin,
  count: number,
  offset = 0,
): Promise<SandboxProfile[]> {
  const found: SandboxProfile[] = []
  while (found.length < count) {
    const page = await admin.profiles({
      canDm: true,
      verifiedOnlyRequests: false,
      protected: false,
      limit: Math.min(PROFILES_PAGE, count - found.length),
      offset: offset + found.length,
    })
    found.push(...page)
    if (page.length === 0) break
  }
  return found
}
