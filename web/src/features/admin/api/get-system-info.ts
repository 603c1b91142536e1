import { adminRequest } from './admin-request'
import type { SystemInfo } from './types'

export const getSystemInfo = () => adminRequest<SystemInfo>('system-info')
