import { adminRequest } from './admin-request'

export const getSystemInfo = () => adminRequest('GET /system-info')
