// For the functions' Deno tests only (never imported by a function): the test stack's Meta sandbox
// (INSTAGRAM_LOGIN_URL) driven as a person would, through its control API and consent screens.
import { requireEnv } from './env.ts'
import { newCustomer, stackEnv } from './test-stack.ts'

export const metaSandbox = (): string => stackEnv()('INSTAGRAM_LOGIN_URL') ?? ''

export async function metaControl<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${metaSandbox()}/__sandbox${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await response.json()) as T
}

/** A fresh Instagram account in the sandbox (unique per test run). */
export async function sandboxInstagramAccount(type = 'BUSINESS') {
  const username = `shop_${crypto.randomUUID().slice(0, 8)}`
  const account = await metaControl<{ id: string; username: string }>('/accounts', {
    username,
    password: 'pw-123456',
    account_type: type,
  })
  return { ...account, password: 'pw-123456' }
}

/** Logs in on the sandbox's consent screen and answers Allow or Cancel; the redirect's URL back. */
export async function consentInSandbox(
  authorizeUrl: string,
  username: string,
  password: string,
  decision = 'allow',
) {
  const params = Object.fromEntries(new URL(authorizeUrl).searchParams)
  const login = await fetch(`${metaSandbox()}/oauth/authorize/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...params, username, password }),
    redirect: 'manual',
  })
  await login.body?.cancel()
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? ''
  const answer = await fetch(`${metaSandbox()}/oauth/authorize/consent`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...params, decision }),
    redirect: 'manual',
  })
  await answer.body?.cancel()
  return new URL(answer.headers.get('location') ?? '')
}

/**
 * A new customer with an official Instagram account connected as a customer does it: the stack's
 * instagram-official function (through the gateway) and the sandbox's consent screen.
 */
export async function connectedOfficialAccount(tag: string) {
  const env = stackEnv()
  const customer = await newCustomer(tag, env)
  const ig = await sandboxInstagramAccount()
  const functions = `${requireEnv('SUPABASE_URL', env)}/functions/v1/instagram-official`
  const headers = {
    apikey: requireEnv('SUPABASE_ANON_KEY', env),
    authorization: `Bearer ${customer.token}`,
    'content-type': 'application/json',
  }
  // one browser, as the web app sends its key at the start and at the finish
  const browserKey = `test-browser-${crypto.randomUUID()}`
  const started = await fetch(`${functions}/connect`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ browserKey }),
  })
  const { url } = (await started.json()) as { url: string }
  const back = await consentInSandbox(url, ig.username, ig.password)
  const forwarded = await fetch(`${functions}/callback${back.search}`, { redirect: 'manual' })
  await forwarded.body?.cancel()
  if (forwarded.status !== 303) throw new Error(`the callback answered ${forwarded.status}`)
  const page = new URL(forwarded.headers.get('location') ?? '')
  const done = await fetch(`${functions}/finish`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...Object.fromEntries(page.searchParams), browserKey }),
  })
  if (done.status !== 200) throw new Error(`the connect ended ${done.status}: ${await done.text()}`)
  await done.body?.cancel()
  const { data } = await customer.db.from('social_accounts').select('id').single()
  return { customer, ig, accountId: data?.id ?? '' }
}
