import type { QueueStats } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getQueueStats = () => adminRequest<QueueStats>('queue-stats')
