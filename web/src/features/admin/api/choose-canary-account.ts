import { adminRequest } from './admin-request'

/** Makes an active account a canary account (or changes its known thread). */
export const chooseCanaryAccount = (accountId: string, threadId: string | null) =>
  adminRequest<{ accountId: string; threadId: string | null }>('canary/accounts', {
    method: 'POST',
    body: { accountId, threadId },
  })
