// For the functions' Deno tests only (never imported by a function): the handlers run in-process
// against the running test stack (`npm test` starts it and passes its URLs and keys in the
// environment), with real customers signed up through Auth and set-up rows written as the service
// role, so row-level security, triggers and RPCs are the real ones.
import { createClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { SupabaseClient } from './clients.ts'
import type { Database } from './database.ts'
import { denoEnv, type Env, requireEnv } from './env.ts'

const CLIENT_AUTH = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

export function stackEnv(overrides: Record<string, string> = {}): Env {
  if (!Deno.env.get('SUPABASE_URL')) {
    throw new Error(
      'SUPABASE_URL is not set: run these tests through `npm test`, which starts the test stack.',
    )
  }
  return (name) => overrides[name] ?? denoEnv(name)
}

export function serviceDb(env: Env = stackEnv()): SupabaseClient {
  return createClient<Database>(
    requireEnv('SUPABASE_URL', env),
    requireEnv('SUPABASE_SERVICE_ROLE_KEY', env),
    {
      auth: CLIENT_AUTH,
    },
  )
}

export interface TestCustomer {
  id: string
  email: string
  token: string
  /** The customer's own client: row-level security applies. */
  db: SupabaseClient
}

/** A random client address per sign-up, so the gateway's per-IP sign-up limit is not shared. */
const fakeIp = () =>
  `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${1 + Math.floor(Math.random() * 253)}`

export async function newCustomer(tag: string, env: Env = stackEnv()): Promise<TestCustomer> {
  const url = requireEnv('SUPABASE_URL', env)
  const anon = requireEnv('SUPABASE_ANON_KEY', env)
  const email = `${tag}-${crypto.randomUUID().slice(0, 8)}@functions.test`
  const signer = createClient<Database>(url, anon, {
    auth: CLIENT_AUTH,
    global: { headers: { 'X-Forwarded-For': fakeIp() } },
  })
  const { data, error } = await signer.auth.signUp({ email, password: 'test-password-1' })
  if (error || !data.session || !data.user) throw error ?? new Error('sign-up returned no session')
  const token = data.session.access_token
  const db = createClient<Database>(url, anon, {
    auth: CLIENT_AUTH,
    global: { headers: { Authorization: `Bearer ${token}` } },
  })
  return { id: data.user.id, email, token, db }
}

/** Gives a customer a plan the way the webhook would record one. */
export async function givePlan(
  customer: { id: string },
  accounts: number,
  status = 'active',
  plan = 'growth',
  env: Env = stackEnv(),
): Promise<void> {
  const { error } = await serviceDb(env)
    .from('subscriptions')
    .insert({ user_id: customer.id, status, plan_type: plan, accounts_purchased: accounts })
  if (error) throw new Error(`givePlan: ${error.message}`)
}

export interface CallOptions {
  method?: string
  token?: string | null
  body?: unknown
  rawBody?: BodyInit
  headers?: Record<string, string>
}

/** A request as the gateway hands it to a function (`/functions/v1/<name>/<path>`). */
export function functionRequest(name: string, path: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers)
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`)
  let body: BodyInit | undefined = options.rawBody
  if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers.set('Content-Type', 'application/json')
  }
  return new Request(`http://127.0.0.1/functions/v1/${name}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  })
}

export async function jsonOf<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T
}

/** A function's answer as the tests compare it: the status and the JSON body. */
export interface Answer {
  status: number
  body: Record<string, unknown> & { error?: string }
}

/** Calls a function's handler in-process as `who` (their token), for its status and JSON body. */
export function callerOf(handler: (req: Request) => Promise<Response>, name: string) {
  return async (who: { token: string }, method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await handler(functionRequest(name, path, { token: who.token, method, body }))
    return { status: response.status, body: await jsonOf<Answer['body']>(response) }
  }
}

/** A new customer who joined `owner`'s personal workspace with `role` and works in it now. */
export async function memberOf(
  owner: TestCustomer,
  role: 'admin' | 'editor' | 'agent' | 'viewer',
  env: Env = stackEnv(),
): Promise<TestCustomer> {
  const person = await newCustomer(`ws-${role}`, env)
  const joined = await serviceDb(env)
    .from('workspace_members')
    .insert({ workspace_id: owner.id, user_id: person.id, role })
  if (joined.error) throw new Error(`Joining the workspace failed: ${joined.error.message}`)
  const switched = await person.db.rpc('set_active_workspace', { p_workspace_id: owner.id })
  if (switched.error) throw new Error(`Switching to the workspace failed: ${switched.error.message}`)
  return person
}

export interface QueuedJob {
  id: string
  name: string
  state: string
  data: Record<string, unknown>
}

/** A statement straight on the database, for what is not exposed over HTTP (the job queue). */
export async function sql<T = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
  env: Env = stackEnv(),
): Promise<T[]> {
  const { default: pg } = await import('npm:pg@8.23.1')
  const client = new pg.Client({ connectionString: requireEnv('SUPABASE_DB_URL', env) })
  await client.connect()
  try {
    return (await client.query(text, params)).rows as T[]
  } finally {
    await client.end()
  }
}

/** pg-boss jobs whose data names `id` under `field`. */
export function jobsFor(field: string, id: string, env: Env = stackEnv()): Promise<QueuedJob[]> {
  return sql<QueuedJob>(
    'select id::text, name, state::text, data from pgboss.job where data ->> $1 = $2 order by created_on',
    [field, id],
    env,
  )
}
