// Shared set-up for the gateway conformance tests: real supabase-js clients against the test
// stack, unique users, and a direct database connection for checks the API cannot make.
import { randomInt, randomUUID } from 'node:crypto'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import pg from 'pg'

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the gateway tests through \`npm test\`.`)
  return value
}

export const api = required('SUPABASE_URL')
export const anonKey = required('SUPABASE_ANON_KEY')
export const serviceKey = required('SUPABASE_SERVICE_ROLE_KEY')
export const dbUrl = required('SUPABASE_DB_URL')
export const siteUrl = process.env.SITE_URL ?? process.env.WEB_URL ?? ''

/** Node 20 has no global WebSocket; realtime needs one only once a channel subscribes. */
class NoWebSocket {
  constructor() {
    throw new Error('These tests do not use realtime')
  }
}

export interface ClientOptions {
  flowType?: 'implicit' | 'pkce'
  key?: string
  headers?: Record<string, string>
}

export function client(options: ClientOptions = {}): SupabaseClient {
  return createClient(api, options.key ?? anonKey, {
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      flowType: options.flowType ?? 'implicit',
    },
    global: { headers: options.headers ?? {} },
    realtime: { transport: NoWebSocket as never },
  })
}

export const serviceClient = () => client({ key: serviceKey })

export const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@gateway.test`

/** A fake client address, so rate-limit tests do not share a budget with every other test. */
export const fakeIp = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`

export async function signedUpUser(tag = 'user', password = 'secret-password') {
  const email = uniqueEmail(tag)
  const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
  const { data, error } = await sb.auth.signUp({ email, password })
  if (error || !data.session || !data.user) throw error ?? new Error('sign-up returned no session')
  return { sb, email, password, session: data.session, user: data.user }
}

let pool: pg.Pool | undefined
export function db(): pg.Pool {
  pool ??= new pg.Pool({ connectionString: dbUrl, max: 3 })
  return pool
}

export function decodeJwt(token: string): {
  header: Record<string, unknown>
  payload: Record<string, unknown>
} {
  const [header = '', payload = ''] = token.split('.')
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString()),
  }
}

/** Raw request to the gateway with the anon key, for the wire format supabase-js hides. */
export function rawFetch(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return fetch(`${api}${path}`, {
    ...init,
    redirect: 'manual',
    headers: { apikey: anonKey, ...init.headers },
  })
}
