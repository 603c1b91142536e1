import { adminRequest } from './admin-request'

export const getHosts = () => adminRequest('GET /hosts')
