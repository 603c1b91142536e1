import type { AdminStats } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getStats = () => adminRequest<AdminStats>('stats')
