import { adminRequest } from './admin-request'

export const getPlatformHealth = () => adminRequest('GET /platform-health')
