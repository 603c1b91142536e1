import { adminRequest } from './admin-request'
import type { PackPlatform, PlatformPackView } from './platform-types'

/** Publishes a draft whose canary try passed; runners use it within a minute. */
export const publishPack = (platform: PackPlatform, packId: string) =>
  adminRequest<PlatformPackView>(`platform-packs/${platform}/publish`, { method: 'POST', body: { packId } })
