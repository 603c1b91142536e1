import { adminRequest } from './admin-request'
import type { Queue } from './types'

export const getQueues = () => adminRequest<Queue[]>('queues')
