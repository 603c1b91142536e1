import type { QueueDetail } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getQueueDetail = (name: string) =>
  adminRequest<QueueDetail>(`queues/${encodeURIComponent(name)}`)
