import type { AdminQueue } from '@reachflow/domain'
import { adminRequest } from './admin-request'

/** Pause stops the runner fetching the queue's jobs (within one poll); Resume lets it go on. */
export const setQueuePaused = (name: string, paused: boolean) =>
  adminRequest<AdminQueue>(`queues/${encodeURIComponent(name)}/${paused ? 'pause' : 'resume'}`, {
    method: 'POST',
  })
