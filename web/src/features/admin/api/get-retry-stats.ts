import type { RetryStats } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getRetryStats = () => adminRequest<RetryStats>('retry-stats')
