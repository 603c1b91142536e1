import { adminRequest } from './admin-request'
import type { QueueDetail } from './types'

export const getQueueDetail = (name: string) =>
  adminRequest<QueueDetail>(`queues/${encodeURIComponent(name)}`)
