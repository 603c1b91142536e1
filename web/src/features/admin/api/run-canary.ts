import type { PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Queues a canary run of the platform's own pack now. */
export const runCanary = (platform: PackPlatform) =>
  adminRequest('POST /platform-health/:platform/canary', { params: { platform } })
