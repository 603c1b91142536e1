import { adminRequest } from './admin-request'
import type { PackPlatform, PlatformPackView } from './platform-types'

/** Back to what was in effect before the newest publication. */
export const rollbackPack = (platform: PackPlatform) =>
  adminRequest<PlatformPackView>(`platform-packs/${platform}/rollback`, { method: 'POST' })
