import { adminRequest } from './admin-request'

export const getQueueDetail = (name: string) => adminRequest('GET /queues/:name', { params: { name } })
