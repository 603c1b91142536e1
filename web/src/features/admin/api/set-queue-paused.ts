import { adminRequest } from './admin-request'
import type { Queue } from './types'

/** Pause stops the runner fetching the queue's jobs (within one poll); Resume lets it go on. */
export const setQueuePaused = (name: string, paused: boolean) =>
  adminRequest<Queue>(`queues/${encodeURIComponent(name)}/${paused ? 'pause' : 'resume'}`, { method: 'POST' })
