import { adminRequest } from './admin-request'
import type { PackPlatform, PlatformAction } from './platform-types'

/** Resumes a platform action paused after a site change (its incidents are resolved by hand). */
export const resumePlatformAction = (platform: PackPlatform, action: PlatformAction) =>
  adminRequest<{ resolved: number; resumed: string[] }>(`platform-health/${platform}/resume`, {
    method: 'POST',
    body: { action },
  })
