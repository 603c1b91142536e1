import { adminRequest } from './admin-request'

export const getUser = (id: string) => adminRequest('GET /users/:id', { params: { id } })
