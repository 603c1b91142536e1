// Assembles the X sandbox: population, world, messaging rules, admin API (with the web release and
// the site-change drill), internal API, X Chat's API, the bundles and the pages. `server.ts` runs it
// as a process; tests may build it in-process on a free port.
import type { ServerResponse } from 'node:http'
import { registerAdminRoutes } from '../social/admin.ts'
import { HttpError, type Request, Router, sendHtml, sendJson } from '../social/http.ts'
import { Messaging } from '../social/messaging.ts'
import { Population } from '../social/population.ts'
import { startSandboxServer } from '../social/server.ts'
import { type Fault, World } from '../social/state.ts'
import {
  conversationId,
  createXAccount,
  describeXAccount,
  ensureDemoAccounts,
  sessionOf,
  X_ERRORS,
  type XErrorCode,
  xError,
} from './accounts.ts'
import { registerXApi } from './api.ts'
import { registerXApiV2 } from './api-v2.ts'
import { DEFAULT_LIMITS, type Endpoint, problem, RateLimits } from './api-v2-limits.ts'
import { Bundles } from './bundles.ts'
import { userResult } from './graphql.ts'
import { registerXOAuth } from './oauth.ts'
import { OAuthStore } from './oauth-store.ts'
import { registerXPages, staticPage } from './pages.ts'
import { Releases } from './release.ts'
import { registerSiteAdmin, SiteChange } from './site-admin.ts'
import { registerXChatApi } from './xchat-api.ts'

/** A bare 429 (as X's edge sometimes answers), one of X's coded errors, or a 500. */
function apiFailure(res: ServerResponse, fault: Fault): void {
  if (fault.mode === 'error' && fault.code === 429) {
    res.writeHead(429, { 'content-type': 'text/plain' })
    res.end('Rate limit exceeded')
    return
  }
  if (fault.mode === 'error' && fault.code !== undefined && fault.code in X_ERRORS) {
    const error = xError(fault.code as XErrorCode)
    sendJson(res, error.status, error.body)
    return
  }
  sendJson(res, 500, { errors: [{ code: 131, message: 'Internal error' }] })
}

/** X API v2's answer to an api fault: its problem details (429 with spent rate-limit headers, 401, 503). */
function apiV2Failure(res: ServerResponse, fault: Fault) {
  if (fault.mode === 'error' && (fault.code === 429 || fault.code === 88)) {
    const reset = String(Math.ceil(Date.now() / 1000) + 900)
    return problem(res, 429, 'Too Many Requests', 'Too Many Requests', {
      'x-rate-limit-limit': '0',
      'x-rate-limit-remaining': '0',
      'x-rate-limit-reset': reset,
    })
  }
  // as X answers a token it no longer accepts (the runner refreshes once, then gives up)
  if (fault.mode === 'error' && (fault.code === 401 || fault.code === 32))
    return problem(res, 401, 'Unauthorized', 'Unauthorized')
  problem(res, 503, 'Service Unavailable', 'Service Unavailable')
}

export const X_POPULATION_SIZE = 20_480
const AVATAR = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><circle cx="24" cy="24" r="24" fill="#cfd9de"/></svg>`

export function startXSandbox(options: { port: number; stateFile?: string; seed?: number }) {
  const population = new Population({
    seed: options.seed ?? 20_260_101,
    size: X_POPULATION_SIZE,
    idPrefix: '1400000',
    allowDots: false,
  })
  const world = new World(options.stateFile)
  world.load()
  ensureDemoAccounts(world)
  const messaging = new Messaging(world, population, {
    seed: 'x',
    threadId: (account, peerId) => conversationId(account.id, peerId),
  })
  const router = new Router()
  registerAdminRoutes(router, {
    name: 'x',
    messaging,
    createAccount: (body) => ({ account: createXAccount(world, body) }),
    describeAccount: describeXAccount,
    describeProfile: (p) => ({ ...p, legacy: userResult(p).legacy }),
    validUsername: (u) => /^[A-Za-z0-9_]{1,15}$/.test(u),
  })
  router.on('GET', '/__sandbox/avatar.svg', (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/svg+xml' })
    res.end(AVATAR)
  })
  router.on('GET', '/favicon.ico', (_req, res) => {
    res.writeHead(204)
    res.end()
  })
  const releases = new Releases()
  const siteChange = new SiteChange()
  registerSiteAdmin(router, releases, siteChange)
  registerXApi(router, messaging, releases)
  // X API v2 (api.x.com) shares this world: same accounts, people, threads and clock
  const oauth = new OAuthStore(options.stateFile?.replace(/\.json$/, '-api.json'), () => world.now())
  const limits = new RateLimits(() => world.now())
  registerXOAuth(router, world, oauth)
  registerXApiV2(router, { messaging, store: oauth, limits })
  registerLimitAdmin(router, limits)
  registerXChatApi(router, messaging)
  registerXPages(router, { messaging, releases, bundles: new Bundles(), siteChange })
  const { server, stop } = startSandboxServer(
    {
      name: 'X',
      router,
      messaging,
      // bundles come from X's CDN on x.com: page faults are about the site's own answers
      faultTarget: (req) =>
        req.url.pathname.startsWith('/__sandbox/') || req.url.pathname.startsWith('/responsive-web/')
          ? undefined
          : req.url.pathname.startsWith('/i/api/') || isApiV2(req)
            ? 'api'
            : 'page',
      accountOf: (req) => {
        const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1]
        const grant = bearer && isApiV2(req) ? oauth.byAccessToken(bearer) : undefined
        return grant ? world.accounts.get(grant.accountId) : sessionOf(world, req).account
      },
      failure: (req, res, target, fault) =>
        target === 'api'
          ? isApiV2(req)
            ? apiV2Failure(res, fault)
            : apiFailure(res, fault)
          : sendHtml(
              res,
              500,
              staticPage(
                'X',
                `<main><div role="alert"><span>Something went wrong. Try reloading.</span>
<button onclick="location.reload()">Retry</button></div></main>`,
              ),
            ),
    },
    options.port,
  )
  const stopAll = () => {
    oauth.saveNow()
    stop()
  }
  return { server, stop: stopAll, world, population, messaging, releases, siteChange, oauth, limits }
}

const isApiV2 = (req: Request) => req.url.pathname.startsWith('/2/')

/**
 * Tests lower X API v2's limits to reach a 429 in a few calls: {dm_send: 2, …} per user and 15
 * minutes, {dm_send_app_daily: n} per app and 24 hours; DELETE restores X's.
 */
function registerLimitAdmin(router: Router, limits: RateLimits): void {
  router.on('PATCH', '/__sandbox/x-api/limits', (req, res) => {
    for (const [endpoint, value] of Object.entries(req.body)) {
      const known = endpoint in DEFAULT_LIMITS || endpoint === 'dm_send_app_daily'
      if (!known || typeof value !== 'number' || !Number.isInteger(value) || value < 1)
        throw new HttpError(
          400,
          `"${endpoint}" must be one of ${[...Object.keys(DEFAULT_LIMITS), 'dm_send_app_daily']} with a limit ≥ 1`,
        )
      if (endpoint === 'dm_send_app_daily') limits.appDailyDmSends = value
      else limits.limits[endpoint as Endpoint] = value
    }
    sendJson(res, 200, { ...limits.limits, dm_send_app_daily: limits.appDailyDmSends })
  })
  router.on('DELETE', '/__sandbox/x-api/limits', (_req, res) => {
    limits.reset()
    sendJson(res, 200, limits.limits)
  })
}
