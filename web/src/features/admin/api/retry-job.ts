import { adminRequest } from './admin-request'

export const retryJob = (id: string) => adminRequest('POST /retries/:id/retry', { params: { id } })
