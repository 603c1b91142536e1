import { adminRequest } from './admin-request'

export const clearLogs = () => adminRequest<{ cleared: number }>('logs/clear', { method: 'POST' })
