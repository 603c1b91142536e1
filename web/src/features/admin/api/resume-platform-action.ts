import type { PackPlatform, PlatformAction } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Resumes a platform action paused after a site change (its incidents are resolved by hand). */
export const resumePlatformAction = (platform: PackPlatform, action: PlatformAction) =>
  adminRequest('POST /platform-health/:platform/resume', { params: { platform }, body: { action } })
