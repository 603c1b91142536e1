import { adminRequest } from './admin-request'
import type { CanaryConfig, PackPlatform } from './platform-types'

/** The platform's canary accounts and settings. */
export const getCanary = (platform: PackPlatform) => adminRequest<CanaryConfig>(`canary/${platform}`)
