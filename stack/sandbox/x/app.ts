// Assembles the X sandbox: population, world, messaging rules, admin API (with the web release and
// the site-change drill), internal API, X Chat's API, the bundles and the pages. `server.ts` runs it
// as a process; tests may build it in-process on a free port.
import type { ServerResponse } from 'node:http'
import { registerAdminRoutes } from '../social/admin.ts'
import { Router, sendHtml, sendJson } from '../social/http.ts'
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
import { Bundles } from './bundles.ts'
import { userResult } from './graphql.ts'
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
          : req.url.pathname.startsWith('/i/api/')
            ? 'api'
            : 'page',
      accountOf: (req) => sessionOf(world, req).account,
      failure: (_req, res, target, fault) =>
        target === 'api'
          ? apiFailure(res, fault)
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
  return { server, stop, world, population, messaging, releases, siteChange }
}
