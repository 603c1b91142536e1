import type { PackPlatform } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Active accounts on the platform an operator may choose for the canary (operators' own first). */
export const getCanaryCandidates = (platform: PackPlatform, q: string) =>
  adminRequest('GET /canary/:platform/candidates', { params: { platform }, query: { q, limit: 20 } })
