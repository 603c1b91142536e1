import { adminRequest } from './admin-request'

/** Pause for `minutes` (null: until resumed) or resume an account's sending. */
export const setAccountSending = (id: string, paused: boolean, minutes: number | null = null) =>
  paused
    ? adminRequest('POST /social-accounts/:id/pause', { params: { id }, body: { minutes } })
    : adminRequest('POST /social-accounts/:id/resume', { params: { id } })
