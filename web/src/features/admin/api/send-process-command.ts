import { adminRequest } from './admin-request'

/** Restart or Kill: the runner acts on the command within one heartbeat (10 s). */
export const sendProcessCommand = (name: string, action: 'restart' | 'kill') =>
  adminRequest(`POST /processes/:name/${action}`, { params: { name } })
