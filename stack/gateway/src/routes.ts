// The services the gateway serves, by path prefix.
import type { ServiceRoute } from './server.ts'

export const routes: ServiceRoute[] = []
