import type { FailedJob } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getRetries = () => adminRequest<FailedJob[]>('retries')
