// Supabase clients for functions. The caller-scoped client sends the caller's own token, so
// Postgres row-level security decides what it may read and write: use it for everything the caller
// could do themselves. The service-role client bypasses RLS; it is created here and nowhere else,
// for the few writes a caller must not make directly (subscriptions from webhooks, credentials).
import { type SupabaseClient as Client, createClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { Database } from './database.ts'
import { denoEnv, type Env, requireEnv } from './env.ts'

/** A client typed by the generated database types: tables, views and RPCs as the migrations made them. */
export type SupabaseClient = Client<Database>

// A function is stateless: no session storage, no refresh timers, nothing read from a URL.
const SERVER_AUTH = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

/** A client acting as the caller (`Authorization: Bearer <their access token>`). */
export function callerClient(authorization: string, env: Env = denoEnv): SupabaseClient {
  return createClient<Database>(requireEnv('SUPABASE_URL', env), requireEnv('SUPABASE_ANON_KEY', env), {
    auth: SERVER_AUTH,
    global: { headers: { Authorization: authorization } },
  })
}

let cachedService: { key: string; client: SupabaseClient } | undefined

/** The service-role client: bypasses RLS, so check ownership before every use. */
export function serviceClient(env: Env = denoEnv): SupabaseClient {
  const url = requireEnv('SUPABASE_URL', env)
  const key = requireEnv('SUPABASE_SERVICE_ROLE_KEY', env)
  if (cachedService?.key !== `${url} ${key}`) {
    cachedService = { key: `${url} ${key}`, client: createClient<Database>(url, key, { auth: SERVER_AUTH }) }
  }
  return cachedService.client
}
