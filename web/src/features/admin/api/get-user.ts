import { adminRequest } from './admin-request'
import type { UserDetail } from './types'

export const getUser = (id: string) => adminRequest<UserDetail>(`users/${encodeURIComponent(id)}`)
