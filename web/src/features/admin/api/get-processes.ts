import type { AdminProcess } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getProcesses = () => adminRequest<AdminProcess[]>('processes')
