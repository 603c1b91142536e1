// Shared set-up for the /rest/v1 conformance suites: each suite file creates its own copy of the
// fixture tables under its own prefix (files run in parallel), waits until the gateway's schema cache
// has them, and drives the real @supabase/supabase-js client as anon, service role and signed-in users.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { ANON_KEY, SERVICE_ROLE_KEY, signHs256, stackConfig } from '../../src/config.ts'
import { loadKeys } from '../src/keys.ts'

export const api = process.env.SUPABASE_URL as string
export const dbUrl = process.env.SUPABASE_DB_URL as string
if (!api || !dbUrl)
  throw new Error('SUPABASE_URL / SUPABASE_DB_URL are not set: run this through `npm test`.')
export const rest = `${api}/rest/v1`

const fixtureSql = readFileSync(new URL('./rest-fixtures.sql', import.meta.url), 'utf8')

/** Node 20 has no WebSocket; these suites never subscribe to realtime, so its socket is never built. */
class NoWebSocket {
  constructor() {
    throw new Error('realtime is not used by the REST suites')
  }
}

export function client(token?: string): SupabaseClient {
  return createClient(api, ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoWebSocket as never },
    ...(token && { global: { headers: { Authorization: `Bearer ${token}` } } }),
  })
}

/** An HS256 access token signed with the JWT secret, as a user with role authenticated. */
export function userToken(sub = randomUUID(), expiresIn = 3600): string {
  const now = Math.floor(Date.now() / 1000)
  return signHs256({ sub, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + expiresIn })
}

/** An ES256 access token as the auth service signs them (kid from the gateway's JWKS). */
export async function es256UserToken(sub = randomUUID()): Promise<string> {
  const keys = await loadKeys(stackConfig())
  return keys.signUserToken({ sub, role: 'authenticated', aud: 'authenticated' }, 3600)
}

export async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
) {
  const db = new pg.Client({ connectionString: dbUrl })
  await db.connect()
  try {
    return await db.query<T>(text, values)
  } finally {
    await db.end()
  }
}

/** Raw request with the anon key unless headers say otherwise. */
export function raw(
  path: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${rest}${path}`, { ...init, headers: { apikey: ANON_KEY, ...init.headers } })
}

/** A response body as JSON of the expected shape. */
export async function jsonOf<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T
}

/**
 * A select string as plain `string`: supabase-js parses literal select strings at the type level,
 * which cannot follow the fixtures' prefixed table names.
 */
export const cols = (text: string): string => text

export const serviceHeaders = { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` }

/**
 * Creates the fixture objects as `gw_<prefix>_*` before the file's tests and drops them after.
 * Returns `t(name)`: the table or function name with the prefix.
 */
export function useFixtures(prefix: string): (name: string) => string {
  const full = `gw_${prefix}_`
  const t = (name: string) => `${full}${name}`
  beforeAll(async () => {
    await sql(fixtureSql.replaceAll('gw_test_', full))
    await sql("notify pgrst, 'reload schema'")
    for (let i = 0; i < 100; i++) {
      const table = await raw(`/${t('kinds')}?select=id`)
      const fn = await raw(`/rpc/${t('whoami')}`)
      if (table.status === 200 && fn.status === 200) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error('The gateway did not pick up the fixture tables')
  })
  afterAll(async () => {
    const drop = fixtureSql.slice(0, fixtureSql.indexOf('create table')).replaceAll('gw_test_', full)
    await sql(drop)
  })
  return t
}
