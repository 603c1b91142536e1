import { adminRequest } from './admin-request'
import type { PackPlatform, PlatformPackView } from './platform-types'

export const getPlatformPack = (platform: PackPlatform) =>
  adminRequest<PlatformPackView>(`platform-packs/${platform}`)
