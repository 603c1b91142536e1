import { adminRequest } from './admin-request'
import type { PlatformHealthOverview } from './platform-types'

export const getPlatformHealth = () => adminRequest<PlatformHealthOverview>('platform-health')
