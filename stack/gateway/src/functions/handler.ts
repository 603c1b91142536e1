// /functions/v1/<name>/…: proxies the call to the function's Deno process, streaming the body both
// ways. The function sees the path from its name on (`/<name>/…`), as on hosted Supabase, and
// answers OPTIONS and sets CORS itself; only the gateway's own errors get CORS headers here.
import { request as httpRequest } from 'node:http'
import { stackConfig } from '../../../src/config.ts'
import type { GatewayContext, GatewayRequest } from '../http.ts'
import { resolveCaller, sendJson, setCors } from '../http.ts'
import { JwtError } from '../keys.ts'
import { FunctionPool, FunctionStartError } from './pool.ts'
import { functionVerifiesJwt } from './verify-jwt.ts'

function functionRoots(): string[] {
  const configured = process.env.FUNCTIONS_ROOTS
  if (configured) return configured.split(':').filter(Boolean)
  return [new URL('../../../../supabase/functions', import.meta.url).pathname]
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
])

export function createFunctionsHandler(config = stackConfig()) {
  let pool: FunctionPool | undefined
  const stop = () => pool?.stopAll()
  process.once('exit', stop)

  const handler = async function functionsHandler(
    request: GatewayRequest,
    ctx: GatewayContext,
  ): Promise<void> {
    pool ??= new FunctionPool(config, functionRoots(), ctx.log)
    const { req, res } = request
    const fail = (status: number, body: Record<string, unknown>) => {
      setCors(res, req)
      sendJson(res, status, body)
    }
    const [, name = '', ...rest] = request.path.split('/')
    const entry = pool.entryOf(name)
    if (!entry) {
      req.resume()
      return fail(404, { error: 'Requested function was not found', code: 'NOT_FOUND' })
    }
    if (request.method !== 'OPTIONS' && functionVerifiesJwt(name)) {
      try {
        await resolveCaller(req, ctx.keys)
      } catch (error) {
        if (!(error instanceof JwtError)) throw error
        req.resume()
        const missing = !req.headers.authorization && !req.headers.apikey
        return fail(401, { error: missing ? 'Missing authorization header' : 'Invalid JWT', code: 401 })
      }
    }
    let running: Awaited<ReturnType<FunctionPool['acquire']>>
    try {
      running = await pool.acquire(name, entry)
    } catch (error) {
      if (!(error instanceof FunctionStartError)) throw error
      ctx.log('error', error.message)
      req.resume()
      return fail(503, { error: `Function ${name} could not start; see its log`, code: 'BOOT_ERROR' })
    }
    const headers = { ...req.headers }
    for (const header of HOP_BY_HOP) delete headers[header]
    headers['x-forwarded-proto'] = 'http'
    headers['x-forwarded-host'] = req.headers.host ?? ''
    await new Promise<void>((resolve) => {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: running.port,
          method: request.method,
          path: `/${[name, ...rest].join('/')}${request.url.search}`,
          headers,
        },
        (response) => {
          const outHeaders = { ...response.headers }
          for (const header of HOP_BY_HOP) delete outHeaders[header]
          res.writeHead(response.statusCode ?? 502, outHeaders)
          response.pipe(res)
          response.once('end', resolve)
          response.once('error', () => {
            res.destroy()
            resolve()
          })
        },
      )
      upstream.once('error', (error) => {
        ctx.log('warn', `function ${name} failed mid-request`, { error: error.message })
        if (!res.headersSent)
          fail(502, { error: `Function ${name} stopped before it answered`, code: 'WORKER_ERROR' })
        else res.destroy()
        resolve()
      })
      req.pipe(upstream)
      res.once('close', () => {
        if (!res.writableFinished) upstream.destroy()
      })
    }).finally(() => pool?.release(running))
  }
  return Object.assign(handler, { stop })
}
