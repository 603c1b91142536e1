// Runs a social sandbox: parses each request, applies page/API faults set through the admin API,
// routes it, turns thrown HttpErrors into answers, delivers due replies on a timer, and saves the
// world on shutdown.
import { createServer, type Server, type ServerResponse } from 'node:http'
import { HttpError, parseCookies, type Request, type Router, readBody, sendHtml, sendJson } from './http.ts'
import type { Messaging } from './messaging.ts'
import type { Fault, OwnAccount } from './state.ts'

export interface SandboxServerOptions {
  name: string
  router: Router
  messaging: Messaging
  /** Which of the account's faults may apply to this request: page (HTML) or api (JSON). */
  faultTarget(req: Request): 'page' | 'api' | undefined
  /** The signed-in account of a request, if any (faults can be scoped to one account). */
  accountOf(req: Request): OwnAccount | undefined
  /** The platform's answer for a page/api fault: its "something went wrong", or the fault's error code. */
  failure(req: Request, res: ServerResponse, target: 'page' | 'api', fault: Fault): void
}

/** How long a "hang" fault holds a request before dropping the connection. */
const HANG_MS = 120_000

export function startSandboxServer(
  options: SandboxServerOptions,
  port: number,
  host = '127.0.0.1',
): { server: Server; stop: () => void } {
  const { messaging } = options
  const server = createServer((raw, res) => {
    void (async () => {
      const url = new URL(raw.url ?? '/', `http://${raw.headers.host ?? host}`)
      const req: Request = {
        method: raw.method ?? 'GET',
        url,
        headers: raw.headers,
        cookies: parseCookies(raw.headers.cookie),
        params: {},
        raw,
        body: {},
      }
      try {
        req.body = await readBody(raw)
        messaging.deliverDueReplies()
        const target = options.faultTarget(req)
        if (target) {
          const fault = messaging.takeFault(options.accountOf(req), target, url.pathname)
          if (fault?.mode === 'hang') {
            setTimeout(() => res.destroy(), HANG_MS).unref()
            return
          }
          if (fault) return options.failure(req, res, target, fault)
        }
        const found = options.router.match(req.method, url.pathname)
        if (!found) {
          if (url.pathname.startsWith('/__sandbox/') || url.pathname.includes('/api/'))
            return sendJson(res, 404, { error: 'Not found' })
          return sendHtml(res, 404, '<!doctype html><title>Not found</title><h1>Page not found</h1>')
        }
        req.params = found.params
        await found.handler(req, res)
      } catch (error) {
        if (res.headersSent) return res.end()
        if (error instanceof HttpError) {
          return sendJson(res, error.status, error.body ?? { error: error.message })
        }
        console.error(`[${options.name}]`, error)
        sendJson(res, 500, { error: 'Internal sandbox error' })
      }
    })()
  })
  server.listen(port, host, () => console.log(`${options.name} sandbox listening on http://${host}:${port}`))
  const timer = setInterval(() => messaging.deliverDueReplies(), 500)
  timer.unref()
  const stop = () => {
    clearInterval(timer)
    messaging.world.saveNow()
    server.close()
    server.closeAllConnections()
  }
  return { server, stop }
}

/** For the sandbox processes: save the world and exit on SIGTERM/SIGINT (the supervisor's stop). */
export function exitOnSignals(stop: () => void): void {
  const exit = () => {
    stop()
    process.exit(0)
  }
  process.once('SIGTERM', exit)
  process.once('SIGINT', exit)
}
