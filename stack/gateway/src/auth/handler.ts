// /auth/v1: the GoTrue endpoints auth-js calls, dispatched by method and path. The API key check
// of the gateway applies to every path except the ones a browser opens directly (verify links,
// the OAuth hops, JWKS, health), as in the Supabase CLI's gateway config.
import type { GatewayContext, GatewayRequest } from '../http.ts'
import { sendJson } from '../http.ts'
import { getUser, logout, passwordGrant, refreshGrant, signup, updateUser } from './account.ts'
import { adminUsers } from './admin.ts'
import { type AuthCall, type AuthLimits, requireApiKey, sessionMeta } from './context.ts'
import { API_VERSION, AuthError, sendAuthError } from './errors.ts'
import { GuessGuard } from './guessing.ts'
import { invite } from './invite.ts'
import { magicLink } from './magic-link.ts'
import { authorize, callback, pkceGrant } from './oauth.ts'
import { rateLimitSettings, SlidingWindow } from './rate-limit.ts'
import { recover, verifyLink, verifyOtp } from './recovery.ts'

type Endpoint = (call: AuthCall) => Promise<void>

const OPEN_PATHS = new Set(['/verify', '/callback', '/authorize', '/.well-known/jwks.json', '/health'])

function settings(_call: AuthCall): Promise<void> {
  sendJson(
    _call.request.res,
    200,
    {
      external: { email: true, phone: false, google: true, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    },
    { 'X-Supabase-Api-Version': API_VERSION },
  )
  return Promise.resolve()
}

async function token(call: AuthCall): Promise<void> {
  const grant = call.request.url.searchParams.get('grant_type')
  if (grant === 'password') return passwordGrant(call)
  if (grant === 'refresh_token') return refreshGrant(call)
  if (grant === 'pkce') return pkceGrant(call)
  throw new AuthError(400, 'unsupported_grant_type', `unsupported_grant_type: ${grant ?? ''}`.trim())
}

const ROUTES: Record<string, Partial<Record<string, Endpoint>>> = {
  '/signup': { POST: signup },
  '/token': { POST: token },
  '/user': { GET: getUser, PUT: updateUser },
  '/logout': { POST: logout },
  '/recover': { POST: recover },
  '/invite': { POST: invite },
  '/otp': { POST: magicLink },
  '/verify': { GET: verifyLink, POST: verifyOtp },
  '/authorize': { GET: authorize },
  '/callback': { GET: callback },
  '/settings': { GET: settings },
  '/.well-known/jwks.json': {
    GET: async (call) =>
      sendJson(call.request.res, 200, call.ctx.keys.jwks, { 'Cache-Control': 'max-age=600' }),
  },
  '/health': {
    GET: async (call) =>
      sendJson(call.request.res, 200, {
        version: 'reachflow-local',
        name: 'GoTrue',
        description: 'local auth',
      }),
  },
}

export function createAuthHandler() {
  const settingsNow = rateLimitSettings()
  const limits: AuthLimits = {
    settings: settingsNow,
    perIp: new SlidingWindow(settingsNow.perIp, settingsNow.windowSeconds * 1000),
    perIpAndEmail: new SlidingWindow(settingsNow.perEmail, settingsNow.windowSeconds * 1000),
    verifyPerIp: new SlidingWindow(settingsNow.verifyPerIp, settingsNow.windowSeconds * 1000),
    guesses: new GuessGuard(settingsNow.guesses),
    resends: new SlidingWindow(1, settingsNow.codes.resendSeconds * 1000),
  }
  return async function authHandler(request: GatewayRequest, ctx: GatewayContext): Promise<void> {
    const call: AuthCall = { request, ctx, limits, meta: sessionMeta(request, settingsNow) }
    const versioned = request.req.headers['x-supabase-api-version'] !== undefined
    const path = request.path.replace(/\/+$/, '') || '/'
    try {
      if (!OPEN_PATHS.has(path)) await requireApiKey(call)
      if (path === '/admin/users' || path.startsWith('/admin/users/')) {
        return await adminUsers(call, path.slice('/admin/users'.length))
      }
      const endpoint = ROUTES[path]?.[request.method === 'HEAD' ? 'GET' : request.method]
      if (!endpoint) {
        throw ROUTES[path]
          ? new AuthError(405, 'method_not_allowed', 'Method not allowed')
          : new AuthError(404, 'not_found', 'Not found')
      }
      await endpoint(call)
    } catch (error) {
      if (error instanceof AuthError && !request.res.headersSent) {
        return sendAuthError(request.res, error, versioned)
      }
      throw error
    }
  }
}
