// The services the gateway serves, by path prefix.
import { restHandler } from './rest/service.ts'
import type { ServiceRoute } from './server.ts'

export const routes: ServiceRoute[] = [{ prefix: '/rest/v1', handler: restHandler }]
