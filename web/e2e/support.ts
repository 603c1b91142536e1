import { expect, type Page } from '@playwright/test'

export const apiUrl = process.env.SUPABASE_URL ?? 'http://127.0.0.1:54321'

/** A fresh address per test, so tests never depend on each other's users. */
export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
}

/** A new customer through the sign-up form, which leaves them on the dashboard (auth.spec, the journeys). */
export async function signUp(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByRole('button', { name: "Don't have an account? Sign up here" }).click()
  await page.getByLabel('Email address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL(/\/dashboard/)
}

/** Where supabase-js keeps the session for this API: `sb-<first label of its host>-auth-token`. */
const sessionStorageKey = `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`

export interface ApiSession {
  access_token: string
  expires_at: number
  user: { id: string }
}

/** A new account made through Auth's API, as the sign-up form's supabase-js makes it. */
export async function signUpSession(email: string, password: string): Promise<ApiSession> {
  const response = await fetch(`${apiUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: requiredEnv('SUPABASE_ANON_KEY'), 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  const session = (await response.json()) as Partial<ApiSession>
  if (!response.ok || !session.access_token || !session.user?.id)
    throw new Error(`Sign-up of ${email}: ${response.status} ${JSON.stringify(session)}`)
  return session as ApiSession
}

/**
 * A new user signed up through Auth's API (`POST /auth/v1/signup`, as the form's supabase-js does),
 * the session stored in this page's origin where supabase-js keeps it, without loading the app: the
 * test's next `page.goto` is the first load, already signed in. For tests whose subject comes after
 * sign-up; the form itself is auth.spec's and the journeys'. Returns the user's id.
 */
export async function signUpThroughApi(page: Page, email: string, password: string): Promise<string> {
  const session = await signUpSession(email, password)
  // a static file of the app's origin: its storage without starting the app
  await page.goto('/favicon.svg')
  await page.evaluate(({ key, value }) => localStorage.setItem(key, value), {
    key: sessionStorageKey,
    value: JSON.stringify(session),
  })
  return session.user.id
}

/**
 * The link containing `needle` in the newest outbox mail sent to `recipient`. Auth mails after it
 * has answered (its answer must not tell whether the address has an account), so this waits for it.
 */
export async function outboxLink(recipient: string, needle: string): Promise<string> {
  let mail: string | undefined
  for (let poll = 0; poll < 100 && !mail; poll++) {
    if (poll > 0) await new Promise((resolve) => setTimeout(resolve, 50))
    const html = await (await fetch(`${apiUrl}/_outbox`)).text()
    mail = html.split('<li').find((block) => block.includes(recipient))
  }
  if (!mail) throw new Error(`No outbox mail for ${recipient}`)
  const link = [...mail.matchAll(/href="([^"]+)"/g)]
    .map((m) => (m[1] ?? '').replace(/&amp;/g, '&').replace(/&#38;/g, '&'))
    .find((href) => href.includes(needle))
  if (!link) throw new Error(`No link containing ${needle} in the mail to ${recipient}`)
  return link
}

function requiredEnv(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the e2e tests through \`npm test\`.`)
  return value
}

/** Writes rows as the system would (service role), through the gateway's REST API. */
async function asService(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<void> {
  const key = requiredEnv('SUPABASE_SERVICE_ROLE_KEY')
  const response = await fetch(`${apiUrl}/rest/v1/${path}`, {
    method,
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
}

export const insertAsService = (table: string, rows: Record<string, unknown>[]) =>
  asService('POST', table, rows)

/** Marks a user's onboarding and setup done, for tests about the pages behind them. */
export const skipOnboarding = (userId: string) =>
  asService('PATCH', `user_profiles?id=eq.${userId}`, { onboarding_completed: true, post_onboarding: true })

/**
 * A fresh, signed-in account on the X sandbox (`body`: the sandbox's account options); its cookies
 * as a browser extension exports them.
 */
export async function xSandboxAccount(body: Record<string, unknown> = {}): Promise<{
  username: string
  cookies: unknown[]
  passcode: string | null
}> {
  const response = await fetch(`${requiredEnv('X_BASE_URL')}/__sandbox/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`X sandbox account: ${response.status} ${await response.text()}`)
  return (await response.json()) as { username: string; cookies: unknown[]; passcode: string | null }
}

/** The signed-in user's id, read from the session supabase-js keeps in localStorage. */
export async function signedInUserId(page: Page): Promise<string> {
  const id = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? ''
      if (/^sb-.*-auth-token$/.test(key)) return JSON.parse(localStorage.getItem(key) ?? '{}')?.user?.id
    }
    return undefined
  })
  if (typeof id !== 'string') throw new Error('No signed-in session in this page')
  return id
}

const xBaseUrl = process.env.X_BASE_URL ?? 'http://127.0.0.1:54341'

/** The X sandbox's test controls (`/__sandbox/<path>`): accounts, messages, deliveries, profiles. */
export async function xSandbox<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(`${xBaseUrl}/__sandbox/${path}`, {
    method: init?.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  })
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** The dialog on top (the wizard, or one it opened). */
export const dialog = (page: Page) => page.getByRole('dialog').last()

/** The DM wizard's schedule step, open around the clock every day so a test sends at once; then Next. */
export async function scheduleAlwaysOpen(page: Page): Promise<void> {
  await dialog(page).getByLabel('Time zone').selectOption('UTC')
  await dialog(page).getByLabel('Send from').fill('00:00')
  await dialog(page).getByLabel('Until').fill('23:59')
  for (const day of ['Sat', 'Sun']) await dialog(page).getByRole('button', { name: day }).click()
  await dialog(page)
    .getByLabel(/Take random days off/)
    .uncheck()
  await dialog(page).getByRole('button', { name: 'Next' }).click()
}
