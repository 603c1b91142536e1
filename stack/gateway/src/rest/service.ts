// /rest/v1: a PostgREST-compatible data API. Routes a request to reads, writes or RPC after resolving
// its caller, and answers every failure in PostgREST's error format.
import type { GatewayContext, GatewayRequest } from '../http.ts'
import type { ServiceHandler } from '../server.ts'
import { SchemaCacheLoader } from './cache-loader.ts'
import { CallerCache } from './caller.ts'
import { type RestService, resolveRequest } from './context.ts'
import type { RestConfig } from './db-config.ts'
import { RestError, toRestError } from './errors.ts'
import { Executor } from './executor.ts'
import { readTable } from './read.ts'
import { sendError } from './respond.ts'
import { callRoutine } from './rpc.ts'
import { writeTable } from './write.ts'

const services = new WeakMap<GatewayContext, RestService>()

function restConfig(): RestConfig {
  const list = (value: string | undefined, fallback: string[]) =>
    value
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : fallback
  return {
    schemas: list(process.env.REST_SCHEMAS, ['public']),
    extraSearchPath: list(process.env.REST_EXTRA_SEARCH_PATH, ['public', 'extensions']),
    maxRows: Number(process.env.REST_MAX_ROWS ?? 1000),
    aggregatesEnabled: false,
    planEnabled: false,
  }
}

/** Connects as `authenticator` (which switches role per transaction), like ctx.apiPool. */
function authenticatorUrl(ctx: GatewayContext): string {
  const url = new URL(ctx.config.dbUrl)
  url.username = 'authenticator'
  return url.toString()
}

export function restService(ctx: GatewayContext): RestService {
  const existing = services.get(ctx)
  if (existing) return existing
  const config = restConfig()
  const loader = new SchemaCacheLoader({
    connectionString: authenticatorUrl(ctx),
    config,
    log: ctx.log,
  })
  loader.start()
  const executor = new Executor(authenticatorUrl(ctx), Number(process.env.REST_POOL_SIZE ?? 12), (error) =>
    ctx.log('warn', 'rest pool connection error', { error: error.message }),
  )
  const service: RestService = { loader, executor, callers: new CallerCache(ctx.keys) }
  services.set(ctx, service)
  return service
}

const invalidPath = () => new RestError(404, 'PGRST125', 'Invalid path specified in request URL')

function segmentsOf(path: string): string[] {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent)
  } catch {
    throw invalidPath()
  }
}

async function route(
  request: GatewayRequest,
  service: RestService,
  authenticated: { value: boolean },
): Promise<void> {
  const segments = segmentsOf(request.path)
  const caller = await service.callers.resolve(request.req)
  authenticated.value = caller.role !== 'anon'
  const method = request.method
  if (segments[0] === 'rpc' && segments.length === 2) {
    if (!['GET', 'HEAD', 'POST'].includes(method))
      throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`)
    const ctx = await resolveRequest(request, service, caller, request.path)
    return callRoutine(ctx, segments[1] as string)
  }
  if (segments.length !== 1) throw invalidPath()
  const name = segments[0] as string
  if (method === 'GET' || method === 'HEAD')
    return readTable(await resolveRequest(request, service, caller, request.path), name)
  if (['POST', 'PATCH', 'DELETE', 'PUT'].includes(method))
    return writeTable(await resolveRequest(request, service, caller, request.path), name)
  throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`)
}

export const restHandler: ServiceHandler = async (request, ctx) => {
  const service = restService(ctx)
  const authenticated = { value: false }
  try {
    await route(request, service, authenticated)
  } catch (error) {
    if (request.res.headersSent) {
      request.res.end()
      return
    }
    sendError(request.res, toRestError(error, authenticated.value))
  }
}
