// How an edge function's endpoint map reads: one key per route, `'<METHOD> <path>'` with `:name`
// path parameters, naming the body it takes, the query it reads and the answer it gives. The
// function builds each answer with `satisfies` the named type, and web's clients take the key, so
// a caller cannot name a type of its own for an answer.

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type HttpMethod = (typeof HTTP_METHODS)[number]

/** One endpoint: `request` is the JSON body (undefined: none), `query` the search parameters. */
export interface EndpointShape {
  request: unknown
  query?: Record<string, string | number | undefined>
  response: unknown
}

/** A map of endpoints, keyed `'<METHOD> <path>'`. */
export type EndpointMap<Map> = { [K in keyof Map]: EndpointShape }

export type MethodOf<K extends string> = K extends `${infer M extends HttpMethod} ${string}` ? M : never
export type PathOf<K extends string> = K extends `${HttpMethod} ${infer P}` ? P : never

/** The `:name` parameters of a path, each a string. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>

/** What a call of endpoint `K` passes beside the key: path parameters, body and query, where it has them. */
export type CallOptions<Map extends EndpointMap<Map>, K extends keyof Map & string> = (keyof PathParams<
  PathOf<K>
> extends never
  ? { params?: undefined }
  : { params: PathParams<PathOf<K>> }) &
  (Map[K]['request'] extends undefined ? { body?: undefined } : { body: Map[K]['request'] }) & {
    query?: Map[K]['query']
  }

/** The options argument, optional when the endpoint needs none. */
export type CallArgs<Map extends EndpointMap<Map>, K extends keyof Map & string> =
  Record<never, never> extends CallOptions<Map, K>
    ? [options?: CallOptions<Map, K>]
    : [options: CallOptions<Map, K>]

/** The request line of a call: its method and its path with the parameters filled in (encoded). */
export function requestLine(
  key: string,
  params: Record<string, string> | undefined,
): { method: HttpMethod; path: string } {
  const method = HTTP_METHODS.find((m) => key.startsWith(`${m} `))
  if (!method) throw new Error(`${key}: not '<METHOD> <path>'`)
  const path = key
    .slice(method.length + 1)
    .replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = params?.[name]
      if (value === undefined) throw new Error(`${key}: no value for :${name}`)
      return encodeURIComponent(value)
    })
    .replace(/^\//, '')
  return { method, path }
}
