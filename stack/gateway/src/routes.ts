// The services the gateway serves, by path prefix.
import { createAuthHandler } from './auth/handler.ts'
import { outboxHandler } from './auth/outbox.ts'
import type { ServiceRoute } from './server.ts'

export const routes: ServiceRoute[] = [
  { prefix: '/auth/v1', handler: createAuthHandler() },
  { prefix: '/_outbox', handler: outboxHandler },
  { prefix: '/_outbox.json', handler: outboxHandler },
]
