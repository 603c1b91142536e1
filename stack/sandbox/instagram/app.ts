// Assembles the Instagram sandbox: population, world, messaging rules, admin API, login, Direct
// and scraping endpoints. `server.ts` runs it as a process.
import { randomBytes } from 'node:crypto'
import { registerAdminRoutes } from '../social/admin.ts'
import { Router, sendJson } from '../social/http.ts'
import { Messaging } from '../social/messaging.ts'
import { Population } from '../social/population.ts'
import { startSandboxServer } from '../social/server.ts'
import { World } from '../social/state.ts'
import {
  createIgAccount,
  describeIgAccount,
  ensureDemoAccounts,
  igThreadId,
  pleaseWait,
  sessionAccount,
} from './accounts.ts'
import { registerIgDirect } from './direct.ts'
import { igPage, sendIgPage } from './layout.ts'
import { newSession, registerIgLogin } from './login.ts'
import { registerIgScrape } from './scrape.ts'

export const IG_POPULATION_SIZE = 20_480
const AVATAR = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><circle cx="24" cy="24" r="24" fill="#dbdbdb"/></svg>`

export function startInstagramSandbox(options: { port: number; stateFile?: string; seed?: number }) {
  const population = new Population({
    seed: options.seed ?? 20_260_202,
    size: IG_POPULATION_SIZE,
    idPrefix: '4800000',
    allowDots: true,
  })
  const world = new World(options.stateFile)
  world.load()
  ensureDemoAccounts(world)
  const messaging = new Messaging(world, population, {
    seed: 'instagram',
    threadId: (account, peerId) => igThreadId(account.id, peerId),
  })
  const router = new Router()
  registerAdminRoutes(router, {
    name: 'instagram',
    messaging,
    createAccount: (body) => {
      const account = createIgAccount(world, body)
      // `signedIn: true` hands back a live session, as if a browser had logged in already
      if (body.signedIn !== true) return { account }
      const cookie = (name: string, value: string, httpOnly: boolean) => ({
        name,
        value,
        domain: '.instagram.com',
        path: '/',
        httpOnly,
        secure: true,
      })
      const sessionCookies = [
        cookie('sessionid', newSession(world, account), true),
        cookie('ds_user_id', account.id, false),
        cookie('csrftoken', randomBytes(16).toString('hex'), false),
      ]
      return { account, extra: { sessionCookies } }
    },
    describeAccount: describeIgAccount,
    describeProfile: (p) => ({ ...p }),
    validUsername: (u) => /^[A-Za-z0-9._]{1,30}$/.test(u),
  })
  router.on('GET', '/__sandbox/avatar.svg', (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/svg+xml' })
    res.end(AVATAR)
  })
  router.on('GET', '/favicon.ico', (_req, res) => {
    res.writeHead(204)
    res.end()
  })
  registerIgLogin(router, messaging)
  registerIgDirect(router, messaging)
  registerIgScrape(router, messaging)
  const { server, stop } = startSandboxServer(
    {
      name: 'Instagram',
      router,
      messaging,
      faultTarget: (req) =>
        req.url.pathname.startsWith('/__sandbox/')
          ? undefined
          : req.url.pathname.startsWith('/api/')
            ? 'api'
            : 'page',
      accountOf: (req) => sessionAccount(world, req),
      failure: (req, res, target, fault) =>
        target === 'api'
          ? fault.mode === 'error' && fault.code === 429
            ? sendJson(res, 429, pleaseWait().body)
            : sendJson(res, 500, { message: 'Something went wrong', status: 'fail' })
          : sendIgPage(
              req,
              res,
              500,
              igPage(
                'Instagram',
                `<main><h2>Sorry, something went wrong.</h2><p>There was a problem loading this page.</p></main>`,
              ),
            ),
    },
    options.port,
  )
  return { server, stop, world, population, messaging }
}
