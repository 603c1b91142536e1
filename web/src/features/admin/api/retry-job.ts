import { adminRequest } from './admin-request'

export const retryJob = (id: string) =>
  adminRequest<{ id: string; queue: string; state: string }>(`retries/${encodeURIComponent(id)}/retry`, {
    method: 'POST',
  })
