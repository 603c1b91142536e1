import { adminRequest } from './admin-request'

export const getAccount = (id: string) => adminRequest('GET /social-accounts/:id', { params: { id } })
