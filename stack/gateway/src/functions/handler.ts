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
    const functions = pool
    const { req, res } = request
    const fail = (status: number, body: Record<string, unknown>) => {
      setCors(res, req)
      sendJson(res, status, body)
    }
    const [, name = '', ...rest] = request.path.split('/')
    const entry = functions.entryOf(name)
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
    const headers = { ...req.headers }
    for (const header of HOP_BY_HOP) delete headers[header]
    headers['x-forwarded-proto'] = 'http'
    headers['x-forwarded-host'] = req.headers.host ?? ''
    // as hosted Supabase's proxy does: the address it saw goes last, after whatever the client sent
    // (a function limiting a public page per address reads the last entry)
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ')
    headers['x-forwarded-for'] = forwardedFor
    // Buffered (bounded by the gateway's body limit) so a request refused by a process that has
    // just died can be sent again to its replacement: the function never saw it.
    const body = await request.body()
    delete headers['transfer-encoding']
    headers['content-length'] = String(body.length)
    for (let attempt = 1; ; attempt++) {
      let running: Awaited<ReturnType<FunctionPool['acquire']>>
      try {
        running = await functions.acquire(name, entry)
      } catch (error) {
        if (!(error instanceof FunctionStartError)) throw error
        ctx.log('error', error.message)
        return fail(503, { error: `Function ${name} could not start; see its log`, code: 'BOOT_ERROR' })
      }
      const outcome = await new Promise<'done' | 'refused'>((resolve) => {
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
            response.once('end', () => resolve('done'))
            response.once('error', () => {
              res.destroy()
              resolve('done')
            })
          },
        )
        upstream.once('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && attempt === 1 && !res.headersSent) {
            functions.discard(running)
            resolve('refused')
            return
          }
          ctx.log('warn', `function ${name} failed mid-request`, { error: error.message })
          if (!res.headersSent)
            fail(502, { error: `Function ${name} stopped before it answered`, code: 'WORKER_ERROR' })
          else res.destroy()
          resolve('done')
        })
        upstream.end(body)
        res.once('close', () => {
          if (!res.writableFinished) upstream.destroy()
        })
      }).finally(() => functions.release(running))
      if (outcome === 'done') return
    }
  }
  return Object.assign(handler, { stop })
}
