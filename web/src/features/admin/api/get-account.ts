import type { AccountDetail } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getAccount = (id: string) =>
  adminRequest<AccountDetail>(`social-accounts/${encodeURIComponent(id)}`)
