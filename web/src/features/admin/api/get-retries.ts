import { adminRequest } from './admin-request'

export const getRetries = () => adminRequest('GET /retries')
