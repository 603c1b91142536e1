import { adminRequest } from './admin-request'
import type { CanaryRun } from './platform-types'

export const getCanaryRun = (id: string) => adminRequest<CanaryRun>(`canary-runs/${encodeURIComponent(id)}`)
