import type { PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getPlatformPack = (platform: PackPlatform) =>
  adminRequest('GET /platform-packs/:platform', { params: { platform } })
