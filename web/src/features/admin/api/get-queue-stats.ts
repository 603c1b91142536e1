import { adminRequest } from './admin-request'

export const getQueueStats = () => adminRequest('GET /queue-stats')
