import type { PackFacts, PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Stores the draft and queues a canary run with it ("Try on canary"). */
export const tryPack = (platform: PackPlatform, facts: PackFacts) =>
  adminRequest('POST /platform-packs/:platform/try', { params: { platform }, body: { facts } })
