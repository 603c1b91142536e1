import { adminRequest } from './admin-request'

/** Pause stops the runner fetching the queue's jobs (within one poll); Resume lets it go on. */
export const setQueuePaused = (name: string, paused: boolean) =>
  adminRequest(paused ? 'POST /queues/:name/pause' : 'POST /queues/:name/resume', { params: { name } })
