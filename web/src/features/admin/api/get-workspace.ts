import { adminRequest } from './admin-request'

export const getWorkspace = (id: string) => adminRequest('GET /workspaces/:id', { params: { id } })
