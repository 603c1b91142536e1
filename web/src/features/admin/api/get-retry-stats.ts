import { adminRequest } from './admin-request'

export const getRetryStats = () => adminRequest('GET /retry-stats')
