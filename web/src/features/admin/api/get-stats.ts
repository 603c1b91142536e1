import { adminRequest } from './admin-request'

export const getStats = () => adminRequest('GET /stats')
