// X's OAuth 2.0 Authorization Code with PKCE as docs.x.com documents it: the authorize page on
// x.com (signed-out visitors go to the X login first, then a consent page; Cancel answers
// error=access_denied), the token endpoint on api.x.com (confidential clients authenticate with
// Basic auth; the code is one-use, 30 s, bound to its redirect URI and code challenge; refresh tokens
// rotate), revocation, and the sandbox's control routes that create developer apps.
import { createHmac } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import {
  escapeHtml as e,
  HttpError,
  type Request,
  type Router,
  redirect,
  sendHtml,
  sendJson,
  stringField,
} from '../social/http.ts'
import type { World } from '../social/state.ts'
import { sessionOf } from './accounts.ts'
import { type DevApp, type Grant, KNOWN_SCOPES, type OAuthStore, s256, sameSecret } from './oauth-store.ts'
import { staticPage } from './pages.ts'

/** What the consent page says each scope lets the app do (X's own wording, shortened). */
const SCOPE_TEXT: Record<string, string> = {
  'tweet.read': 'Posts you can view, including posts from protected accounts.',
  'users.read': 'Any account you can view, including protected accounts.',
  'dm.read': 'All your Direct Messages.',
  'dm.write': 'Send and manage Direct Messages for you.',
  'offline.access': 'Stay connected to your account until you revoke access.',
}

const AUTHORIZE_ERROR = `<main><h1>Something went wrong</h1><p>You weren't able to give access to the App.
Go back and try logging in again.</p></main>`

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  sendJson(res, status, { error, error_description: description })
}

/** The authorize request's parameters, checked; undefined (after answering) when it cannot go on. */
function authorizeRequest(store: OAuthStore, params: URLSearchParams, res: ServerResponse) {
  const app = store.apps.get(params.get('client_id') ?? '')
  const redirectUri = params.get('redirect_uri') ?? ''
  // never redirect to a URL the app did not register: X shows its own error page instead
  if (!app?.callbackUrls.includes(redirectUri)) {
    sendHtml(res, 400, staticPage('X', AUTHORIZE_ERROR))
    return undefined
  }
  const state = params.get('state') ?? ''
  const scopes = (params.get('scope') ?? '').split(/[ +]/).filter(Boolean)
  const challenge = params.get('code_challenge') ?? ''
  const method = params.get('code_challenge_method') ?? 'plain'
  const valid =
    params.get('response_type') === 'code' &&
    state.length > 0 &&
    state.length <= 500 &&
    scopes.length > 0 &&
    scopes.every((s) => (KNOWN_SCOPES as readonly string[]).includes(s)) &&
    /^[A-Za-z0-9._~-]{43,128}$/.test(challenge) &&
    (method === 'S256' || method === 'plain')
  if (!valid) {
    sendHtml(res, 400, staticPage('X', AUTHORIZE_ERROR))
    return undefined
  }
  return { app, redirectUri, state, scopes, challenge, method: method as 'S256' | 'plain' }
}

/** Binds the consent form to the signed-in session and the exact request (a forged POST fails). */
function consentToken(ct0: string, query: string): string {
  return createHmac('sha256', ct0).update(query).digest('base64url')
}

function consentPage(app: DevApp, account: { username: string; name: string }, query: string, token: string) {
  const scopes = new URLSearchParams(query).get('scope')?.split(/[ +]/).filter(Boolean) ?? []
  return staticPage(
    'X / Authorize an application',
    `<main><h1>${e(app.name)} wants to access your X account.</h1>
<p>Signed in as <strong>@${e(account.username)}</strong> (${e(account.name)})</p>
<h2>Things this App can view and do</h2><ul>${scopes
      .map((s) => `<li data-scope="${e(s)}">${e(SCOPE_TEXT[s] ?? s)}</li>`)
      .join('')}</ul>
<form method="post" action="/i/oauth2/authorize">
<input type="hidden" name="query" value="${e(query)}"><input type="hidden" name="authenticity_token" value="${e(token)}">
<button type="submit" name="approve" value="1" data-testid="OAuth_Consent_Button">Authorize app</button>
<button type="submit" name="approve" value="0" data-testid="OAuth_Cancel_Button">Cancel</button>
</form></main>`,
  )
}

/** The client of a token request: Basic auth with the app's id and secret (confidential clients). */
function basicClient(store: OAuthStore, req: Request): DevApp | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(req.headers.authorization ?? '')
  if (!match?.[1]) return undefined
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return undefined
  const app = store.apps.get(decodeURIComponent(decoded.slice(0, colon)))
  const secret = decodeURIComponent(decoded.slice(colon + 1))
  return app && sameSecret(app.clientSecret, secret) ? app : undefined
}

function tokenAnswer(res: ServerResponse, store: OAuthStore, grant: Grant): void {
  sendJson(res, 200, {
    token_type: 'bearer',
    expires_in: Math.round((grant.accessExpiresAt - store.now()) / 1000),
    access_token: grant.accessToken,
    scope: grant.scopes.join(' '),
    ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}),
  })
}

const isForm = (req: Request) =>
  (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')

export function registerXOAuth(router: Router, world: World, store: OAuthStore): void {
  router.on('GET', '/i/oauth2/authorize', (req, res) => {
    const request = authorizeRequest(store, req.url.searchParams, res)
    if (!request) return
    const session = sessionOf(world, req)
    if (!session.ok) {
      if (session.reason === 'locked') return redirect(res, '/account/access')
      return redirect(
        res,
        `/i/flow/login?redirect_after_login=${encodeURIComponent(req.url.pathname + req.url.search)}`,
      )
    }
    const query = req.url.search.slice(1)
    sendHtml(
      res,
      200,
      consentPage(request.app, session.account, query, consentToken(req.cookies.ct0 ?? '', query)),
    )
  })

  router.on('POST', '/i/oauth2/authorize', (req, res) => {
    const session = sessionOf(world, req)
    const query = stringField(req.body, 'query') ?? ''
    const given = stringField(req.body, 'authenticity_token') ?? ''
    if (!session.ok || !sameSecret(given, consentToken(req.cookies.ct0 ?? '', query)))
      return sendHtml(res, 403, staticPage('X', AUTHORIZE_ERROR))
    const request = authorizeRequest(store, new URLSearchParams(query), res)
    if (!request) return
    const target = new URL(request.redirectUri)
    if (req.body.approve !== '1') {
      target.searchParams.set('error', 'access_denied')
      target.searchParams.set('state', request.state)
      return redirect(res, target.toString())
    }
    const code = store.issueCode({
      clientId: request.app.clientId,
      accountId: session.account.id,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      challenge: request.challenge,
      challengeMethod: request.method,
    })
    target.searchParams.set('state', request.state)
    target.searchParams.set('code', code.code)
    redirect(res, target.toString())
  })

  router.on('POST', '/2/oauth2/token', (req, res) => {
    if (!isForm(req))
      return oauthError(res, 400, 'invalid_request', 'Missing required parameter [grant_type].')
    const app = basicClient(store, req)
    if (!app) return oauthError(res, 401, 'unauthorized_client', 'Missing valid authorization header')
    const grantType = String(req.body.grant_type ?? '')
    if (grantType === 'authorization_code') {
      const code = store.takeCode(String(req.body.code ?? ''))
      const verifier = String(req.body.code_verifier ?? '')
      const proof = code?.challengeMethod === 'S256' ? s256(verifier) : verifier
      if (
        !code ||
        code.clientId !== app.clientId ||
        code.redirectUri !== req.body.redirect_uri ||
        !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) ||
        !sameSecret(proof, code.challenge)
      )
        return oauthError(res, 400, 'invalid_request', 'Value passed for the authorization code was invalid.')
      return tokenAnswer(res, store, store.grant(app.clientId, code.accountId, code.scopes))
    }
    if (grantType === 'refresh_token') {
      const grant = store.byRefreshToken(String(req.body.refresh_token ?? ''))
      if (!grant || grant.revoked || grant.clientId !== app.clientId)
        return oauthError(res, 400, 'invalid_request', 'Value passed for the token was invalid.')
      return tokenAnswer(res, store, store.refresh(grant))
    }
    oauthError(res, 400, 'invalid_request', 'Value passed for the grant type was invalid.')
  })

  router.on('POST', '/2/oauth2/revoke', (req, res) => {
    const app = basicClient(store, req)
    if (!app) return oauthError(res, 401, 'unauthorized_client', 'Missing valid authorization header')
    const value = String(req.body.token ?? '')
    const grant = store.byAccessToken(value) ?? store.byRefreshToken(value)
    // revoking either token ends the whole grant; an unknown token is not an error (RFC 7009)
    if (grant && grant.clientId === app.clientId) store.revoke(grant)
    sendJson(res, 200, { revoked: true })
  })

  // the developer portal, reduced to what a test needs: an app with its keys and callback URLs
  router.on('POST', '/__sandbox/x-api/apps', (req, res) => {
    const name = stringField(req.body, 'name', false) ?? 'Sandbox App'
    const urls = req.body.callbackUrls
    if (!Array.isArray(urls) || urls.length === 0 || urls.length > 10)
      throw new HttpError(400, '"callbackUrls" must list 1–10 URLs')
    for (const url of urls)
      if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url))
        throw new HttpError(400, `"${String(url)}" is not a callback URL`)
    sendJson(res, 201, describeApp(store.createApp(name.slice(0, 32), urls as string[])))
  })
  router.on('GET', '/__sandbox/x-api/apps/:clientId', (req, res) =>
    sendJson(res, 200, describeApp(appOf(store, req))),
  )
  // what an account granted (never the tokens): tests check that a refused connect left no live grant
  router.on('GET', '/__sandbox/x-api/grants', (req, res) => {
    const account = world.accountByUsername(req.url.searchParams.get('account') ?? '')
    if (!account) throw new HttpError(404, 'No such account')
    const grants = store.grants.filter((g) => g.accountId === account.id)
    sendJson(res, 200, {
      grants: grants.map((g) => ({
        clientId: g.clientId,
        scopes: g.scopes,
        revoked: g.revoked,
        live: !g.revoked && g.accessExpiresAt > store.now(),
      })),
    })
  })
  router.on('POST', '/__sandbox/x-api/apps/:clientId/secret', (req, res) =>
    sendJson(res, 200, describeApp(store.regenerateSecret(appOf(store, req)))),
  )
}

function appOf(store: OAuthStore, req: Request): DevApp {
  const app = store.apps.get(req.params.clientId ?? '')
  if (!app) throw new HttpError(404, 'No such app')
  return app
}

function describeApp(app: DevApp) {
  return {
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    name: app.name,
    callbackUrls: app.callbackUrls,
  }
}
