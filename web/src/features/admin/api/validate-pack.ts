import { adminRequest } from './admin-request'
import type { PackFacts, PackPlatform, PackValidation } from './platform-types'

/** Checks a draft against the code default's shape; every problem names its path. */
export const validatePack = (platform: PackPlatform, facts: PackFacts) =>
  adminRequest<PackValidation>(`platform-packs/${platform}/validate`, { method: 'POST', body: { facts } })
