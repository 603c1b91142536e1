import type { AdminUser } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getUsers = () => adminRequest<AdminUser[]>('users')
