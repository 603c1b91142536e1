import { adminRequest } from './admin-request'

export const clearLogs = () => adminRequest('POST /logs/clear')
