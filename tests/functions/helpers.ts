// Calling the functions as the web app does, through the gateway with supabase-js's
// functions.invoke, plus set-up the API cannot do (plans, the runner's results) as the service role.
// Clients, users and the database pool come from the gateway's test helpers.
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js'
import { expect } from 'vitest'
import { client, db, serviceClient, signedUpUser } from '../../stack/gateway/test/helpers.ts'

export { client, db, serviceClient, signedUpUser }

export type Json = Record<string, unknown> & { error?: string }

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the tests through \`npm test\`.`)
  return value
}

export const stripeBase = () => required('STRIPE_API_BASE')
export const webhookSecret = () => required('STRIPE_WEBHOOK_SECRET')

export interface Result<T = Json> {
  status: number
  body: T
}

/** `functions.invoke('api/<path>')`: the status and the JSON body, errors included. */
export async function invoke<T = Json>(
  sb: SupabaseClient,
  path: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' = 'GET',
  body?: unknown,
): Promise<Result<T>> {
  const { data, error, response } = await sb.functions.invoke(path, {
    method,
    ...(body === undefined ? {} : { body: body as Record<string, unknown> }),
  })
  if (error) {
    if (!(error instanceof FunctionsHttpError)) throw error
    const context = error.context as Response
    return { status: context.status, body: (await context.json()) as T }
  }
  return { status: response?.status ?? 200, body: data as T }
}

export async function customer(tag: string) {
  const user = await signedUpUser(tag)
  return { ...user, id: user.user.id }
}

export async function givePlan(userId: string, accounts: number, status = 'active', plan = 'growth') {
  const { error } = await serviceClient()
    .from('subscriptions')
    .insert({ user_id: userId, status, plan_type: plan, accounts_purchased: accounts })
  expect(error).toBeNull()
}

export const xCookies = (auth = 'a'.repeat(40), ct0 = 'b'.repeat(64)) => [
  {
    name: 'auth_token',
    value: auth,
    domain: '.x.com',
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'no_restriction',
  },
  { name: 'ct0', value: ct0, domain: '.x.com', path: '/', secure: true, sameSite: 'lax' },
]

/** Calls a Stripe sandbox control endpoint (/__sandbox/...). */
export async function sandbox<T = Json>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${stripeBase()}/__sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await response.json()) as T
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

/** Waits until `check` returns a value (webhooks arrive asynchronously). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
