import { adminRequest } from './admin-request'

export const deleteJob = (id: string) =>
  adminRequest<{ id: string; deleted: boolean }>(`retries/${encodeURIComponent(id)}`, { method: 'DELETE' })
