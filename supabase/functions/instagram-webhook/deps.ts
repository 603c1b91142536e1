// What the webhook's handlers take from outside: the environment, the service client and the clock
// (tests pass their own).
import type { SupabaseClient } from '../_shared/clients.ts'
import type { Env } from '../_shared/env.ts'

export interface WebhookDeps {
  env: Env
  service: () => SupabaseClient
  now: () => Date
}
