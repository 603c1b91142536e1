import { adminRequest } from './admin-request'
import type { QueueStats } from './types'

export const getQueueStats = () => adminRequest<QueueStats>('queue-stats')
