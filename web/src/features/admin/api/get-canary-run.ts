import { adminRequest } from './admin-request'

export const getCanaryRun = (id: string) => adminRequest('GET /canary-runs/:id', { params: { id } })
