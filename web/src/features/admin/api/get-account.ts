import { adminRequest } from './admin-request'
import type { AccountDetail } from './types'

export const getAccount = (id: string) =>
  adminRequest<AccountDetail>(`social-accounts/${encodeURIComponent(id)}`)
