import { adminRequest } from './admin-request'
import type { AdminAccount } from './types'

export const getAccounts = () => adminRequest<AdminAccount[]>('social-accounts')
