import type { CanarySettings, PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** The profile and search the canary opens, and how often it runs. */
export const saveCanarySettings = (platform: PackPlatform, settings: CanarySettings) =>
  adminRequest('PUT /canary/:platform/settings', { params: { platform }, body: settings })
