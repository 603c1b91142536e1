import { adminRequest } from './admin-request'
import type { AdminProcess } from './types'

export const getProcesses = () => adminRequest<AdminProcess[]>('processes')
