import { adminRequest } from './admin-request'
import type { FailedJob } from './types'

export const getRetries = () => adminRequest<FailedJob[]>('retries')
