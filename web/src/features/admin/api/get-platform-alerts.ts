import { adminRequest } from './admin-request'
import type { PlatformAlerts } from './platform-types'

/** What the overview warns about: paused platform actions and open site-change incidents. */
export const getPlatformAlerts = () => adminRequest<PlatformAlerts>('platform-alerts')
