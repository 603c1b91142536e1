import { adminRequest } from './admin-request'
import type { AdminUser } from './types'

export const getUsers = () => adminRequest<AdminUser[]>('users')
