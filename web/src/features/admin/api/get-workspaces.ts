import { adminRequest } from './admin-request'

export const getWorkspaces = () => adminRequest('GET /workspaces')
