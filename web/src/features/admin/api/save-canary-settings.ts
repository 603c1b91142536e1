import { adminRequest } from './admin-request'
import type { CanarySettings, PackPlatform } from './platform-types'

/** The profile and search the canary opens, and how often it runs. */
export const saveCanarySettings = (platform: PackPlatform, settings: CanarySettings) =>
  adminRequest<CanarySettings>(`canary/${platform}/settings`, { method: 'PUT', body: settings })
