import type { PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Publishes a draft whose canary try passed; runners use it within a minute. */
export const publishPack = (platform: PackPlatform, packId: string) =>
  adminRequest('POST /platform-packs/:platform/publish', { params: { platform }, body: { packId } })
