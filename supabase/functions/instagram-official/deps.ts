// What the instagram-official routes need from outside: configuration, a fetch for Instagram's
// hosts, the clock and the service client. Tests pass their own; index.ts passes Deno's.
import { type SupabaseClient, serviceClient } from '../_shared/clients.ts'
import { denoEnv, type Env } from '../_shared/env.ts'

export interface OfficialDeps {
  env: Env
  fetch: typeof fetch
  now: () => Date
  /** The service-role client: the state table, the account's creation and its sealed token. */
  service: () => SupabaseClient
}

export function defaultDeps(env: Env = denoEnv): OfficialDeps {
  return {
    env,
    fetch: (input, init) => fetch(input, init),
    now: () => new Date(),
    service: () => serviceClient(env),
  }
}
