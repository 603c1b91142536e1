import type { PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/**
 * Publishes a draft whose canary try passed; runners use it within a minute. A try that skipped
 * steps publishes only when `unchecked` names exactly those steps (the operator's confirmation).
 */
export const publishPack = (platform: PackPlatform, packId: string, unchecked?: string[]) =>
  adminRequest('POST /platform-packs/:platform/publish', {
    params: { platform },
    body: { packId, ...(unchecked ? { unchecked } : {}) },
  })
