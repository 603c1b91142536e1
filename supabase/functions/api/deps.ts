// What the api routes need from outside: configuration, the Stripe client and a fetch for X. Tests
// pass their own; index.ts passes Deno's environment. Every route runs as an authenticated caller.
import { type Caller, requireCaller } from '../_shared/auth.ts'
import { type SupabaseClient, serviceClient } from '../_shared/clients.ts'
import { denoEnv, type Env } from '../_shared/env.ts'
import type { RouteContext, RouteHandler } from '../_shared/router.ts'
import { createStripeClient, type Stripe } from '../_shared/stripe.ts'

export interface ApiDeps {
  env: Env
  stripe: () => Stripe
  /** Used for the live cookie check against X (X_BASE_URL). */
  fetch: typeof fetch
  now: () => Date
  /** A name's A and AAAA addresses (none when it does not resolve): the proxy check. */
  resolveHost: (host: string) => Promise<string[]>
}

async function resolveWithDeno(host: string): Promise<string[]> {
  const addresses: string[] = []
  for (const type of ['A', 'AAAA'] as const) {
    try {
      addresses.push(...(await Deno.resolveDns(host, type)))
    } catch {
      // NXDOMAIN, no records of this type, or no resolver: nothing from this lookup
    }
  }
  return addresses
}

export function defaultDeps(env: Env = denoEnv): ApiDeps {
  let stripe: Stripe | undefined
  return {
    env,
    stripe: () => {
      stripe ??= createStripeClient(env)
      return stripe
    },
    fetch: (input, init) => fetch(input, init),
    now: () => new Date(),
    resolveHost: resolveWithDeno,
  }
}

export interface CallContext extends RouteContext {
  caller: Caller
  deps: ApiDeps
  /** The service-role client: only for writes a caller may not make, after checking ownership. */
  service: () => SupabaseClient
}

export type CallerHandler = (req: Request, ctx: CallContext) => Promise<Response>

/** A route that first authenticates the caller (401 otherwise), then runs `handler`. */
export function authed(deps: ApiDeps, handler: CallerHandler): RouteHandler {
  return async (req, route) => {
    const caller = await requireCaller(req, deps.env)
    return handler(req, { ...route, caller, deps, service: () => serviceClient(deps.env) })
  }
}
