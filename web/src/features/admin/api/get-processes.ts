import { adminRequest } from './admin-request'

export const getProcesses = () => adminRequest('GET /processes')
