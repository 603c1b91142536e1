import { adminRequest } from './admin-request'
import type { AdminStats } from './types'

export const getStats = () => adminRequest<AdminStats>('stats')
