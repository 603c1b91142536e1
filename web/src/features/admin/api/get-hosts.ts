import type { HostInfo } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getHosts = () => adminRequest<HostInfo[]>('hosts')
