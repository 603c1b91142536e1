import type { PackFacts, PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Checks a draft against the code default's shape; every problem names its path. */
export const validatePack = (platform: PackPlatform, facts: PackFacts) =>
  adminRequest('POST /platform-packs/:platform/validate', { params: { platform }, body: { facts } })
