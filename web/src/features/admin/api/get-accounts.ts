import { adminRequest } from './admin-request'

export const getAccounts = () => adminRequest('GET /social-accounts')
