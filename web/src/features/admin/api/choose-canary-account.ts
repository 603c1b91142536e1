import { adminRequest } from './admin-request'

/** Makes an active account a canary account (or changes its known thread). */
export const chooseCanaryAccount = (accountId: string, threadId: string | null) =>
  adminRequest('POST /canary/accounts', { body: { accountId, threadId } })
