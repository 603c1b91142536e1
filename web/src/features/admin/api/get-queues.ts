import { adminRequest } from './admin-request'

export const getQueues = () => adminRequest('GET /queues')
