import type { SystemInfo } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getSystemInfo = () => adminRequest<SystemInfo>('system-info')
