import type { PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Back to what was in effect before the newest publication. */
export const rollbackPack = (platform: PackPlatform) =>
  adminRequest('POST /platform-packs/:platform/rollback', { params: { platform } })
