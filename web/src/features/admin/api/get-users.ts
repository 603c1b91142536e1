import { adminRequest } from './admin-request'

export const getUsers = () => adminRequest('GET /users')
