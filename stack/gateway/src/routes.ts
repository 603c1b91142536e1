// The services the gateway serves, by path prefix.
import { stackConfig } from '../../src/config.ts'
import { createAuthHandler } from './auth/handler.ts'
import { outboxHandler } from './auth/outbox.ts'
import { createFunctionsHandler } from './functions/handler.ts'
import { restHandler } from './rest/service.ts'
import type { ServiceRoute } from './server.ts'
import { createStorageHandler } from './storage/handler.ts'

const config = stackConfig()

export const routes: ServiceRoute[] = [
  { prefix: '/auth/v1', handler: createAuthHandler() },
  { prefix: '/rest/v1', handler: restHandler },
  { prefix: '/storage/v1', handler: createStorageHandler(config.storageDir) },
  { prefix: '/functions/v1', handler: createFunctionsHandler(config), ownCors: true },
  { prefix: '/_outbox', handler: outboxHandler },
  { prefix: '/_outbox.json', handler: outboxHandler },
]
