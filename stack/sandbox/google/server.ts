// A stand-in for Google's OAuth 2.0 / OpenID endpoints, so "Sign in with Google" works offline:
// a consent page where the developer picks or types an account, the token endpoint that swaps the
// code for an access token (checking the registered client), and userinfo. State lives in memory.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { googleClient } from './client.ts'

interface Account {
  email: string
  name: string
}

interface Grant {
  account: Account
  clientId: string
  redirectUri: string
  scope: string
  expiresAt: number
}

const CODE_SECONDS = 600
const TOKEN_SECONDS = 3600

/** Accounts offered on the consent page; any other address can be typed in. */
export const SANDBOX_ACCOUNTS: Account[] = [
  { email: 'demo@reachflow.test', name: 'Demo Customer' },
  { email: 'google.user@reachflow.test', name: 'Gina Google' },
]

/** Google's numeric subject id, stable per address so a second sign-in finds the same identity. */
export const googleSub = (email: string) =>
  BigInt(`0x${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 16)}`)
    .toString()
    .padStart(21, '1')

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > 64 * 1024) {
        reject(new Error('form too large'))
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))))
    req.on('error', reject)
  })
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(body))
}

function html(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in - Google Accounts</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;background:#f0f4f9;margin:0}main{max-width:28rem;margin:3rem auto;
background:#fff;border-radius:24px;padding:2rem}h1{font-size:1.5rem;font-weight:400}button{font:inherit;cursor:pointer}
.account{display:block;width:100%;text-align:left;padding:.75rem;border:1px solid #ddd;border-radius:8px;background:#fff;margin:.5rem 0}
.account small{display:block;color:#555}input{font:inherit;width:100%;box-sizing:border-box;padding:.6rem;margin:.25rem 0 .75rem;
border:1px solid #bbb;border-radius:6px}.primary{background:#0b57d0;color:#fff;border:0;border-radius:20px;padding:.6rem 1.4rem}
.secondary{background:none;border:0;color:#0b57d0;padding:.6rem 1rem}.note{color:#555;font-size:.9rem}</style></head>
<body><main>${body}</main></body></html>`)
}

export function createGoogleSandbox(options: { allowedRedirectUris: string[] }) {
  const client = googleClient()
  const codes = new Map<string, Grant>()
  const tokens = new Map<string, Grant>()

  const consentPage = (res: ServerResponse, params: URLSearchParams) => {
    const clientId = params.get('client_id') ?? ''
    const redirectUri = params.get('redirect_uri') ?? ''
    if (clientId !== client.clientId) {
      return html(res, 401, '<h1>Access blocked: authorization error</h1><p>Error 401: invalid_client</p>')
    }
    if (!options.allowedRedirectUris.includes(redirectUri)) {
      return html(
        res,
        400,
        '<h1>Access blocked: this app’s request is invalid</h1><p>Error 400: redirect_uri_mismatch</p>',
      )
    }
    if (params.get('response_type') !== 'code') {
      return html(res, 400, '<h1>Access blocked</h1><p>Error 400: unsupported_response_type</p>')
    }
    const hidden = ['client_id', 'redirect_uri', 'scope', 'state']
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params.get(name) ?? '')}">`)
      .join('')
    const accounts = SANDBOX_ACCOUNTS.map(
      (account) => `<form method="post" action="/o/oauth2/v2/auth/approve">${hidden}
<input type="hidden" name="email" value="${escapeHtml(account.email)}"><input type="hidden" name="name" value="${escapeHtml(account.name)}">
<button class="account" name="decision" value="allow">${escapeHtml(account.name)}<small>${escapeHtml(account.email)}</small></button></form>`,
    ).join('')
    html(
      res,
      200,
      `<h1>Choose an account</h1><p>to continue to <strong>Reachflow</strong></p>${accounts}
<form method="post" action="/o/oauth2/v2/auth/approve">${hidden}
<label>Use another account<input name="email" type="email" placeholder="Email" required></label>
<label>Name<input name="name" placeholder="Full name"></label>
<button class="primary" name="decision" value="allow">Continue</button></form>
<form method="post" action="/o/oauth2/v2/auth/approve">${hidden}<button class="secondary" name="decision" value="deny">Cancel</button></form>
<p class="note">Local sandbox: no real Google account is used.</p>`,
    )
  }

  const approve = async (req: IncomingMessage, res: ServerResponse) => {
    const form = await readForm(req)
    const redirectUri = form.get('redirect_uri') ?? ''
    if (form.get('client_id') !== client.clientId || !options.allowedRedirectUris.includes(redirectUri)) {
      return html(res, 400, '<h1>Access blocked</h1><p>Error 400: redirect_uri_mismatch</p>')
    }
    const target = new URL(redirectUri)
    const state = form.get('state')
    if (state) target.searchParams.set('state', state)
    const email = (form.get('email') ?? '').trim().toLowerCase()
    if (form.get('decision') !== 'allow') {
      target.searchParams.set('error', 'access_denied')
      target.searchParams.set('error_description', 'The user denied access')
    } else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return html(res, 400, '<h1>Couldn’t find your Google Account</h1><p>Enter a valid e-mail address.</p>')
    } else {
      const code = `4/${randomBytes(24).toString('base64url')}`
      codes.set(code, {
        account: { email, name: (form.get('name') ?? '').trim() || email.split('@')[0] || email },
        clientId: client.clientId,
        redirectUri,
        scope: form.get('scope') ?? 'openid email profile',
        expiresAt: Date.now() + CODE_SECONDS * 1000,
      })
      target.searchParams.set('code', code)
    }
    res.writeHead(302, { Location: target.toString() })
    res.end()
  }

  const token = async (req: IncomingMessage, res: ServerResponse) => {
    const form = await readForm(req)
    if (form.get('client_id') !== client.clientId || form.get('client_secret') !== client.clientSecret) {
      return json(res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' })
    }
    if (form.get('grant_type') !== 'authorization_code') {
      return json(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' })
    }
    const code = form.get('code') ?? ''
    const grant = codes.get(code)
    codes.delete(code) // single use, whatever the outcome
    if (!grant || grant.expiresAt < Date.now() || grant.redirectUri !== form.get('redirect_uri')) {
      return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' })
    }
    const accessToken = `ya29.${randomBytes(32).toString('base64url')}`
    tokens.set(accessToken, { ...grant, expiresAt: Date.now() + TOKEN_SECONDS * 1000 })
    json(res, 200, {
      access_token: accessToken,
      expires_in: TOKEN_SECONDS,
      token_type: 'Bearer',
      scope: grant.scope,
    })
  }

  const userinfo = (req: IncomingMessage, res: ServerResponse) => {
    const header = req.headers.authorization ?? ''
    const grant = tokens.get(header.replace(/^Bearer\s+/i, ''))
    if (!grant || grant.expiresAt < Date.now()) {
      return json(res, 401, { error: 'invalid_token', error_description: 'Invalid Credentials' })
    }
    const [given, ...family] = grant.account.name.split(' ')
    json(res, 200, {
      sub: googleSub(grant.account.email),
      name: grant.account.name,
      given_name: given ?? '',
      family_name: family.join(' '),
      picture: `https://lh3.googleusercontent.com/a/${googleSub(grant.account.email)}`,
      email: grant.account.email,
      email_verified: true,
    })
  }

  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.local')
    const route = `${req.method} ${url.pathname}`
    const work = (() => {
      if (route === 'GET /health') return json(res, 200, { status: 'ok' })
      if (route === 'GET /o/oauth2/v2/auth') return consentPage(res, url.searchParams)
      if (route === 'POST /o/oauth2/v2/auth/approve') return approve(req, res)
      if (route === 'POST /token') return token(req, res)
      if (route === 'GET /oauth2/v3/userinfo') return userinfo(req, res)
      return json(res, 404, { error: 'not_found' })
    })()
    Promise.resolve(work).catch((error: unknown) => {
      if (!res.headersSent)
        json(res, 400, { error: 'invalid_request', error_description: (error as Error).message })
    })
  })
}
