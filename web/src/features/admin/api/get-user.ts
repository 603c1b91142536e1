import type { UserDetail } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getUser = (id: string) => adminRequest<UserDetail>(`users/${encodeURIComponent(id)}`)
