// CORS for browser calls through supabase-js: the headers the client sends are allowed, the ones
// it reads are exposed, and every function answers its own preflight (supabase-contract.md).

export const ALLOWED_HEADERS = [
  'authorization',
  'x-client-info',
  'apikey',
  'content-type',
  'prefer',
  'accept-profile',
  'content-profile',
  'x-upsert',
  'x-metadata',
  'x-supabase-api-version',
  'cache-control',
  'range',
  'x-retry-count',
].join(', ')

export const EXPOSED_HEADERS = 'Content-Range, X-Supabase-Api-Version'

export const corsHeaders: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': ALLOWED_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  'Access-Control-Max-Age': '86400',
}

/** The answer to a preflight request, or null for any other method. */
export function preflight(req: Request): Response | null {
  if (req.method !== 'OPTIONS') return null
  return new Response(null, { status: 204, headers: corsHeaders })
}

/** The same response with the CORS headers set (headers of a fetched Response are immutable, so it copies). */
export function withCors(response: Response): Response {
  const headers = new Headers(response.headers)
  for (const [name, value] of Object.entries(corsHeaders)) headers.set(name, value)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
