import type { AdminQueue } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getQueues = () => adminRequest<AdminQueue[]>('queues')
