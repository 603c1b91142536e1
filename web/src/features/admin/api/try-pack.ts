import { adminRequest } from './admin-request'
import type { PackFacts, PackPlatform } from './platform-types'

/** Stores the draft and queues a canary run with it ("Try on canary"). */
export const tryPack = (platform: PackPlatform, facts: PackFacts) =>
  adminRequest<{ packId: string; runId: string; version: string }>(`platform-packs/${platform}/try`, {
    method: 'POST',
    body: { facts },
  })
