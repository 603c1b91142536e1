// For the X sandbox's own HTTP tests: plays the page the way its bundles do (the transaction id of a
// GraphQL call, X Chat's passcode step and encrypted payloads), with the sandbox's own code, since
// the tests run in-process beside it. The runner never does any of this: it drives the real page.
import { WEB_BEARER } from './accounts.ts'
import { type Release, transactionIdFor } from './release.ts'
import { type Envelope, openWith, sealWith, unwrapChatKey } from './xchat-crypto.ts'

export interface TestAccount {
  id: string
  username: string
  cookieHeader: string
}

export const ct0Of = (account: TestAccount) => /ct0=([0-9a-f]+)/.exec(account.cookieHeader)?.[1] ?? ''

/** The headers x.com's web client sends with an internal API call. */
export const apiHeaders = (account: TestAccount): Record<string, string> => ({
  cookie: account.cookieHeader,
  'x-csrf-token': ct0Of(account),
  authorization: `Bearer ${WEB_BEARER}`,
})

/** The page's verification key, read from a signed-in page as the bundle reads it. */
export async function pageKeyOf(base: string, account: TestAccount): Promise<string> {
  const html = await (await fetch(`${base}/home`, { headers: { cookie: account.cookieHeader } })).text()
  const key = /name="twitter-site-verification" content="([^"]+)"/.exec(html)?.[1]
  if (!key) throw new Error('The page carries no verification key')
  return key
}

/** A GraphQL call as the page makes it: the release's query id and a transaction id over method and path. */
export async function graphql(
  base: string,
  account: TestAccount,
  release: Release,
  operation: keyof Release['queryIds'],
  variables: Record<string, unknown>,
  options: { queryId?: string; transactionId?: string | null } = {},
) {
  const path = `/i/api/graphql/${options.queryId ?? release.queryIds[operation]}/${operation}`
  const transaction =
    options.transactionId === undefined
      ? transactionIdFor(release, await pageKeyOf(base, account), 'GET', path)
      : options.transactionId
  const response = await fetch(`${base}${path}?variables=${encodeURIComponent(JSON.stringify(variables))}`, {
    headers: { ...apiHeaders(account), ...(transaction ? { 'x-client-transaction-id': transaction } : {}) },
  })
  const text = await response.text()
  return {
    status: response.status,
    text,
    body: text ? (JSON.parse(text) as unknown) : null,
    headers: response.headers,
  }
}

/** X Chat's key as the page gets it: the passcode step, then the wrapped key opened with the passcode. */
export async function chatKeyOf(
  base: string,
  account: TestAccount,
  passcode: string | null,
): Promise<Buffer> {
  const response = passcode
    ? await fetch(`${base}/i/api/1.1/xchat/pin/verify.json`, {
        method: 'POST',
        headers: { ...apiHeaders(account), 'content-type': 'application/json' },
        body: JSON.stringify({ pin: passcode }),
      })
    : await fetch(`${base}/i/api/1.1/xchat/keys.json`, { headers: apiHeaders(account) })
  if (!response.ok) throw new Error(`No chat key: HTTP ${response.status}`)
  const { wrapped_key } = (await response.json()) as { wrapped_key: string }
  return unwrapChatKey(account.id, passcode ?? '', wrapped_key)
}

/** An X Chat call with its payload sealed and its answer opened (null when it is not an envelope). */
export async function chat(
  base: string,
  account: TestAccount,
  key: Buffer,
  path: string,
  payload?: unknown,
  signal?: AbortSignal,
) {
  const response = await fetch(`${base}${path}`, {
    method: payload === undefined ? 'GET' : 'POST',
    headers: { ...apiHeaders(account), 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { body: JSON.stringify(sealWith(key, payload)) }),
    ...(signal ? { signal } : {}),
  })
  const raw = await response.text()
  let body: unknown = null
  try {
    const parsed = JSON.parse(raw) as Envelope
    body = parsed.v === 1 ? openWith(key, parsed) : null
  } catch {
    body = null
  }
  return { status: response.status, raw, body: body as Record<string, unknown> | null }
}

export interface TestApp {
  clientId: string
  clientSecret: string
  callbackUrls: string[]
}

export const basicAuth = (app: TestApp) =>
  `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString('base64')}`

/** The consent form's hidden fields, as the signed-in browser would submit them. */
export function consentForm(html: string): Record<string, string> {
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`)
      .exec(html)?.[1]
      ?.replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
  const query = field('query')
  const token = field('authenticity_token')
  if (query === undefined || token === undefined) throw new Error('No consent form on the page')
  return { query, authenticity_token: token }
}

/**
 * OAuth 2.0 with PKCE as an X developer's server runs it against the sandbox, the user signed in
 * with their cookies and pressing "Authorize app": the redirect's code exchanged for tokens.
 */
export async function connectWithOAuth(
  base: string,
  account: TestAccount,
  app: TestApp,
  scope = 'dm.read dm.write tweet.read users.read offline.access',
): Promise<{ access_token: string; refresh_token?: string; scope: string; expires_in: number }> {
  const verifier = `verifier-${crypto.randomUUID()}-${crypto.randomUUID()}`
  const challenge = Buffer.from(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)),
  ).toString('base64url')
  const redirectUri = app.callbackUrls[0] ?? ''
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: redirectUri,
    scope,
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })
  const page = await fetch(`${base}/i/oauth2/authorize?${query}`, {
    headers: { cookie: account.cookieHeader },
  })
  const form = consentForm(await page.text())
  const approved = await fetch(`${base}/i/oauth2/authorize`, {
    method: 'POST',
    headers: { cookie: account.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, approve: '1' }),
    redirect: 'manual',
  })
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? ''
  const token = await fetch(`${base}/2/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basicAuth(app), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  })
  if (!token.ok) throw new Error(`Token exchange failed: HTTP ${token.status} ${await token.text()}`)
  return (await token.json()) as {
    access_token: string
    refresh_token?: string
    scope: string
    expires_in: number
  }
}
