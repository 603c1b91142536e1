import type { AccountDetail } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Pause for `minutes` (null: until resumed) or resume an account's sending. */
export const setAccountSending = (id: string, paused: boolean, minutes: number | null = null) =>
  adminRequest<AccountDetail>(`social-accounts/${encodeURIComponent(id)}/${paused ? 'pause' : 'resume'}`, {
    method: 'POST',
    ...(paused ? { body: { minutes } } : {}),
  })
