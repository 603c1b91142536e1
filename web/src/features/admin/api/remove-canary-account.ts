import { adminRequest } from './admin-request'

export const removeCanaryAccount = (accountId: string) =>
  adminRequest('DELETE /canary/accounts/:id', { params: { id: accountId } })
