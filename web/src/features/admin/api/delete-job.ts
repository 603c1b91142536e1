import { adminRequest } from './admin-request'

export const deleteJob = (id: string) => adminRequest('DELETE /retries/:id', { params: { id } })
