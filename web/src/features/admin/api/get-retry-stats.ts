import { adminRequest } from './admin-request'
import type { RetryStats } from './types'

export const getRetryStats = () => adminRequest<RetryStats>('retry-stats')
