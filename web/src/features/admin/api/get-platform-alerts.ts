import { adminRequest } from './admin-request'

/** What the overview warns about: paused platform actions and open site-change incidents. */
export const getPlatformAlerts = () => adminRequest('GET /platform-alerts')
