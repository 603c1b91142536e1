import { adminRequest } from './admin-request'
import type { HostInfo } from './types'

export const getHosts = () => adminRequest<HostInfo[]>('hosts')
