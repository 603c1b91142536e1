import { adminRequest } from './admin-request'
import type { PackPlatform } from './platform-types'

/** Queues a canary run of the platform's own pack now. */
export const runCanary = (platform: PackPlatform) =>
  adminRequest<{ runId: string }>(`platform-health/${platform}/canary`, { method: 'POST' })
