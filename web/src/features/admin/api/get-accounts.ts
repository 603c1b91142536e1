import type { AdminAccount } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getAccounts = () => adminRequest<AdminAccount[]>('social-accounts')
