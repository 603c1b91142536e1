// Business Login for Instagram: the consent screen at www.instagram.com/oauth/authorize (log in,
// then Allow / Cancel), the code's exchange at api.instagram.com/oauth/access_token (short-lived
// token, one hour), the long-lived token at graph.instagram.com/access_token (60 days) and its
// refresh at /refresh_access_token (only once it is 24 hours old).
import { randomBytes } from 'node:crypto'
import {
  type ApiRequest,
  escapeHtml,
  type Router,
  redirectTo,
  route,
  sendHtml,
  sendJson,
} from '../official/server.ts'
import { GRAPH, graphError, oauthError } from './errors.ts'
import { DAY, HOUR, type IgAccount, type MetaWorld } from './world.ts'

export const SCOPES = [
  'instagram_business_basic',
  'instagram_business_manage_messages',
  'instagram_business_manage_comments',
  'instagram_business_content_publish',
  'instagram_business_manage_insights',
] as const

const SCOPE_TEXT: Record<string, string> = {
  instagram_business_basic: 'Access your profile and posts',
  instagram_business_manage_messages: 'Access and manage your messages',
  instagram_business_manage_comments: 'Access and manage comments on your posts',
  instagram_business_content_publish: 'Publish content to your account',
  instagram_business_manage_insights: 'Access insights for your account',
}

const SESSION_COOKIE = 'ig_oauth_sessionid'
const CODE_LIFETIME_MS = HOUR

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} • Instagram</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:-apple-system,system-ui,sans-serif;background:#fafafa;margin:0;color:#262626}
main{max-width:360px;margin:40px auto;background:#fff;border:1px solid #dbdbdb;padding:32px 40px}
h1{font-size:20px;font-weight:600}label{display:block;font-size:13px;margin:8px 0}input{width:100%;box-sizing:border-box;padding:9px;
border:1px solid #dbdbdb;border-radius:3px;background:#fafafa}button{width:100%;padding:8px;border:0;border-radius:8px;font-weight:600;
margin-top:10px;cursor:pointer}.primary{background:#0095f6;color:#fff}.secondary{background:#efefef}ul{padding-left:18px}
[role=alert]{color:#ed4956;font-size:14px}</style></head><body><main>${body}</main></body></html>`
}

function parseScopes(raw: string): string[] {
  return raw
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean)
}

function hidden(params: URLSearchParams): string {
  return ['client_id', 'redirect_uri', 'response_type', 'scope', 'state']
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params.get(name) ?? '')}">`)
    .join('')
}

/** What the authorize request asks for, or the error Instagram shows instead of the window. */
function readAuthorize(world: MetaWorld, params: URLSearchParams) {
  const { app } = world.state
  if (params.get('client_id') !== app.appId) throw oauthError('Invalid platform app')
  const redirectUri = params.get('redirect_uri') ?? ''
  if (!app.redirectUris.includes(redirectUri)) throw oauthError('Invalid redirect_uri')
  if (params.get('response_type') !== 'code')
    throw oauthError('Invalid response_type: only code is supported')
  const scopes = parseScopes(params.get('scope') ?? '')
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s))
  if (unknown.length) throw oauthError(`Invalid scope field(s): ${unknown.join(',')}`)
  if (!scopes.includes('instagram_business_basic'))
    throw oauthError('The instagram_business_basic scope is required')
  return { redirectUri, scopes, state: params.get('state') }
}

function denied(res: ApiRequest['res'], redirectUri: string, state: string | null): void {
  const target = new URL(redirectUri)
  target.searchParams.set('error', 'access_denied')
  target.searchParams.set('error_reason', 'user_denied')
  target.searchParams.set('error_description', 'The user denied your request.')
  if (state) target.searchParams.set('state', state)
  redirectTo(res, target.toString())
}

function loggedIn(world: MetaWorld, req: ApiRequest): IgAccount | undefined {
  const id = world.logins.get(req.cookies[SESSION_COOKIE] ?? '')
  return id ? world.accountById(id) : undefined
}

export function registerOAuth(router: Router, world: MetaWorld): void {
  route(router, 'GET', '/oauth/authorize', (req) => {
    const params = req.url.searchParams
    const { scopes } = readAuthorize(world, params)
    const account = loggedIn(world, req)
    if (!account) {
      return sendHtml(
        req.res,
        200,
        page(
          'Log in',
          `<h1>Log in to continue to ${escapeHtml(world.state.app.name)}</h1>
<form method="post" action="/oauth/authorize/login">${hidden(params)}
<label>Username<input name="username" autocomplete="username" required></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required></label>
${params.get('login_error') ? `<p role="alert">${escapeHtml(params.get('login_error') ?? '')}</p>` : ''}
<button class="primary">Log in</button></form>`,
        ),
      )
    }
    if (account.accountType === 'PERSONAL') {
      return sendHtml(
        req.res,
        200,
        page(
          'Professional account needed',
          `<h1>Switch to a professional account</h1><p>@${escapeHtml(account.username)} is a personal account.
${escapeHtml(world.state.app.name)} works with Instagram business and creator accounts: switch in Settings › Account type and tools, then try again.</p>
<form method="post" action="/oauth/authorize/consent">${hidden(params)}<button class="secondary" name="decision" value="deny">Cancel</button></form>`,
        ),
      )
    }
    sendHtml(
      req.res,
      200,
      page(
        'Allow access',
        `<h1>${escapeHtml(world.state.app.name)} would like to:</h1>
<p>Logged in as <strong>@${escapeHtml(account.username)}</strong></p>
<ul>${scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('')}</ul>
<form method="post" action="/oauth/authorize/consent">${hidden(params)}
<button class="primary" name="decision" value="allow">Allow</button>
<button class="secondary" name="decision" value="deny">Cancel</button></form>`,
      ),
    )
  })

  route(router, 'POST', '/oauth/authorize/login', (req) => {
    const params = new URLSearchParams(req.body as Record<string, string>)
    readAuthorize(world, params)
    const account = world.accountByUsername(String(req.body.username ?? ''))
    const back = new URL('/oauth/authorize', 'http://sandbox.local')
    for (const name of ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'])
      if (params.get(name) !== null) back.searchParams.set(name, params.get(name) ?? '')
    if (!account || account.password !== String(req.body.password ?? '')) {
      back.searchParams.set(
        'login_error',
        'Sorry, your password was incorrect. Please double-check your password.',
      )
      return redirectTo(req.res, `${back.pathname}${back.search}`)
    }
    const session = randomBytes(16).toString('hex')
    world.logins.set(session, account.id)
    redirectTo(req.res, `${back.pathname}${back.search}`, {
      'set-cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax`,
    })
  })

  route(router, 'POST', '/oauth/authorize/consent', (req) => {
    const params = new URLSearchParams(req.body as Record<string, string>)
    const { redirectUri, scopes, state } = readAuthorize(world, params)
    const account = loggedIn(world, req)
    if (!account || req.body.decision !== 'allow' || account.accountType === 'PERSONAL')
      return denied(req.res, redirectUri, state)
    const code = `AQ${randomBytes(48).toString('base64url')}`
    world.state.codes.push({
      code,
      accountId: account.id,
      redirectUri,
      scopes,
      expiresAt: world.now() + CODE_LIFETIME_MS,
      used: false,
    })
    world.changed()
    const target = new URL(redirectUri)
    target.searchParams.set('code', code)
    if (state) target.searchParams.set('state', state)
    // Instagram appends #_ to the redirect; it is not part of the code
    redirectTo(req.res, `${target.toString()}#_`)
  })

  route(router, 'POST', '/oauth/access_token', (req) => {
    const { app } = world.state
    const body = req.body as Record<string, string | undefined>
    if (body.client_id !== app.appId) throw oauthError('Invalid platform app')
    if (body.client_secret !== app.appSecret) throw oauthError('Error validating client secret.')
    if (body.grant_type !== 'authorization_code') throw oauthError('Unsupported grant_type')
    const grant = world.state.codes.find((c) => c.code === (body.code ?? '').replace(/#_$/, ''))
    if (!grant) throw oauthError('Invalid authorization code')
    if (grant.used) throw oauthError('This authorization code has been used.')
    if (grant.expiresAt < world.now()) throw oauthError('This authorization code has expired.')
    if (grant.redirectUri !== body.redirect_uri)
      throw oauthError(
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      )
    grant.used = true
    const account = world.accountById(grant.accountId)
    if (!account) throw oauthError('Invalid authorization code')
    const token = world.newToken(account.id, 'short', grant.scopes)
    sendJson(req.res, 200, {
      data: [
        { access_token: token.token, user_id: account.appScopedId, permissions: grant.scopes.join(',') },
      ],
    })
  })

  route(router, 'GET', '/access_token', (req) => {
    const q = req.url.searchParams
    if (q.get('grant_type') !== 'ig_exchange_token') throw GRAPH.param('grant_type must be ig_exchange_token')
    if (q.get('client_secret') !== world.state.app.appSecret)
      throw graphError(1, 'Error validating client secret.')
    const short = validToken(world, q.get('access_token'))
    if (short.kind !== 'short') throw GRAPH.param('Only a short-lived token can be exchanged')
    const long = world.newToken(short.accountId, 'long', short.scopes)
    sendJson(req.res, 200, {
      access_token: long.token,
      token_type: 'bearer',
      expires_in: Math.round((long.expiresAt - world.now()) / 1000),
    })
  })

  route(router, 'GET', '/refresh_access_token', (req) => {
    const q = req.url.searchParams
    if (q.get('grant_type') !== 'ig_refresh_token') throw GRAPH.param('grant_type must be ig_refresh_token')
    const current = validToken(world, q.get('access_token'))
    if (current.kind !== 'long') throw GRAPH.param('Only a long-lived token can be refreshed')
    if (world.now() - current.issuedAt < DAY)
      throw GRAPH.param('The access token must be at least 24 hours old to be refreshed')
    const fresh = world.newToken(current.accountId, 'long', current.scopes)
    sendJson(req.res, 200, {
      access_token: fresh.token,
      token_type: 'bearer',
      expires_in: Math.round((fresh.expiresAt - world.now()) / 1000),
    })
  })
}

/** The stored token for a value, or the Graph error for a missing, unknown or expired one. */
export function validToken(world: MetaWorld, value: string | null | undefined) {
  if (!value) throw GRAPH.noToken()
  const token = world.state.tokens.find((t) => t.token === value)
  if (!token) throw GRAPH.badToken()
  if (token.expiresAt <= world.now()) throw GRAPH.expiredToken(token.expiresAt, world.now())
  return token
}
