// What every /rest/v1 request resolves first: caller, schema cache, profile (schema), preferences,
// accepted media type, and the settings its transaction starts with.
import type { GatewayRequest } from '../http.ts'
import type { SchemaCacheLoader } from './cache-loader.ts'
import type { CallerCache, ResolvedCaller } from './caller.ts'
import type { RestConfig } from './db-config.ts'
import { RestError, unknownSchema } from './errors.ts'
import type { Executor, RequestSettings } from './executor.ts'
import { type Accept, negotiate } from './negotiate.ts'
import { type Preferences, parsePrefer } from './prefer.ts'
import type { SchemaCache } from './schema-cache.ts'
import { ident } from './sql/fragments.ts'

export interface RestService {
  loader: SchemaCacheLoader
  executor: Executor
  callers: CallerCache
}

export interface RestRequest {
  request: GatewayRequest
  service: RestService
  caller: ResolvedCaller
  cache: SchemaCache
  schema: string
  prefs: Preferences
  accept: Accept
  settings: RequestSettings
}

const cacheUnavailable = () =>
  new RestError(503, 'PGRST002', 'Could not query the database for the schema cache. Retrying.')

async function waitForCache(loader: SchemaCacheLoader): Promise<SchemaCache> {
  for (let i = 0; i < 50 && !loader.cache; i++) await new Promise((resolve) => setTimeout(resolve, 100))
  if (!loader.cache) throw cacheUnavailable()
  return loader.cache
}

function profile(request: GatewayRequest, config: RestConfig): string {
  const read = request.method === 'GET' || request.method === 'HEAD'
  const header = request.req.headers[read ? 'accept-profile' : 'content-profile']
  const schema = typeof header === 'string' && header !== '' ? header : config.schemas[0]
  if (!schema || !config.schemas.includes(schema)) throw unknownSchema(schema ?? '', config.schemas)
  return schema
}

const searchPaths = new WeakMap<RestConfig, Map<string, string>>()

/**
 * The profile's schema first, then the extra search path (Supabase: public, extensions), repeats
 * kept: PostgREST 14 sets exactly that list (Query/PreQuery.hs txVarQuery), and EXPLAIN's settings
 * show it.
 */
function searchPathFor(schema: string, config: RestConfig): string {
  let paths = searchPaths.get(config)
  if (!paths) {
    paths = new Map()
    searchPaths.set(config, paths)
  }
  let path = paths.get(schema)
  if (!path) {
    path = [schema, ...config.extraSearchPath].map(ident).join(', ')
    paths.set(schema, path)
  }
  return path
}

export async function resolveRequest(
  request: GatewayRequest,
  service: RestService,
  caller: ResolvedCaller,
  path: string,
): Promise<RestRequest> {
  const cache = service.loader.cache ?? (await waitForCache(service.loader))
  const schema = profile(request, cache.config)
  const prefs = parsePrefer(request.req.headers.prefer)
  const accept = negotiate(
    request.req.headers.accept,
    cache.config.planEnabled,
    cache.geoJsonFunction !== null,
  )
  const searchPath = searchPathFor(schema, cache.config)
  return {
    request,
    service,
    caller,
    cache,
    schema,
    prefs,
    accept,
    settings: {
      role: caller.role,
      claims: caller.claimsJson,
      method: request.method,
      path,
      headers: JSON.stringify(request.req.headers),
      searchPath,
      statementTimeout: cache.roleTimeouts[caller.role] ?? null,
    },
  }
}
