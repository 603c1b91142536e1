// The local Supabase gateway on config.ports.api: one HTTP server that routes /auth/v1, /rest/v1,
// /storage/v1 and /functions/v1 to their services, with CORS and body limits for all of them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import pg from 'pg'
import { stackConfig } from '../../src/config.ts'
import {
  type GatewayContext,
  type GatewayRequest,
  HttpError,
  makeRequest,
  sendJson,
  setCors,
} from './http.ts'
import { loadKeys } from './keys.ts'

export type ServiceHandler = (request: GatewayRequest, ctx: GatewayContext) => Promise<void>

export interface ServiceRoute {
  prefix: string
  handler: ServiceHandler
  /** Functions answer OPTIONS and set CORS themselves, as on hosted Supabase. */
  ownCors?: boolean
}

export async function createGateway(routes: ServiceRoute[], config = stackConfig()) {
  const keys = await loadKeys(config)
  const dbUrl = new URL(config.dbUrl)
  const apiUrl = new URL(config.dbUrl)
  apiUrl.username = 'authenticator'
  const ctx: GatewayContext = {
    config,
    keys,
    apiPool: new pg.Pool({ connectionString: apiUrl.toString(), max: 40, idleTimeoutMillis: 30_000 }),
    adminPool: new pg.Pool({ connectionString: dbUrl.toString(), max: 10, idleTimeoutMillis: 30_000 }),
    log(level, message, meta) {
      const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...meta })
      if (level === 'error') console.error(line)
      else console.log(line)
    },
  }
  // A dropped database connection must not crash the gateway; the pool reconnects on next use.
  ctx.apiPool.on('error', (error) => ctx.log('warn', 'api pool connection error', { error: error.message }))
  ctx.adminPool.on('error', (error) =>
    ctx.log('warn', 'admin pool connection error', { error: error.message }),
  )

  const sorted = [...routes].sort((a, b) => b.prefix.length - a.prefix.length)

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', config.apiUrl)
    if (url.pathname === '/health') return sendJson(res, 200, { status: 'ok' })
    const route = sorted.find((r) => url.pathname === r.prefix || url.pathname.startsWith(`${r.prefix}/`))
    if (!route?.ownCors) {
      setCors(res, req)
      if (req.method === 'OPTIONS') {
        res.writeHead(200)
        return res.end()
      }
    }
    if (!route) return sendJson(res, 404, { message: 'no Route matched with those values' })
    await route.handler(makeRequest(req, res, url, route.prefix), ctx)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.end()
        return
      }
      if (error instanceof HttpError) return sendJson(res, error.status, error.body, error.headers)
      ctx.log('error', 'unhandled gateway error', { error: (error as Error).stack ?? String(error) })
      sendJson(res, 500, { message: 'Internal gateway error' })
    })
  })
  server.keepAliveTimeout = 65_000
  return {
    server,
    ctx,
    listen: () => new Promise<void>((resolve) => server.listen(config.ports.api, config.host, resolve)),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.all([ctx.apiPool.end(), ctx.adminPool.end()])
    },
  }
}
