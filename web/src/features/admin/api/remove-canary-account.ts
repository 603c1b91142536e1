import { adminRequest } from './admin-request'

export const removeCanaryAccount = (accountId: string) =>
  adminRequest<{ accountId: string; removed: true }>(`canary/accounts/${encodeURIComponent(accountId)}`, {
    method: 'DELETE',
  })
