import { adminRequest } from './admin-request'
import type { PackPlatform, PlatformPackView } from './platform-types'

/**
 * Publishes a draft whose canary try passed; runners use it within a minute. A try that skipped
 * steps publishes only when `unchecked` names exactly those steps (the operator's confirmation).
 */
export const publishPack = (platform: PackPlatform, packId: string, unchecked?: string[]) =>
  adminRequest<PlatformPackView>(`platform-packs/${platform}/publish`, {
    method: 'POST',
    body: { packId, ...(unchecked ? { unchecked } : {}) },
  })
