import type { PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** The platform's canary accounts and settings. */
export const getCanary = (platform: PackPlatform) =>
  adminRequest('GET /canary/:platform', { params: { platform } })
