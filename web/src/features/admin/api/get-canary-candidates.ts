import { adminRequest } from './admin-request'
import type { CanaryCandidate, PackPlatform } from './platform-types'

/** Active accounts on the platform an operator may choose for the canary (operators' own first). */
export const getCanaryCandidates = (platform: PackPlatform, q: string) =>
  adminRequest<CanaryCandidate[]>(`canary/${platform}/candidates`, { query: { q, limit: 20 } })
