// The admin function's routes (product.md §7 "Admin", `/functions/v1/admin/...`), plus the detail and
// action routes the admin tab's drawers need. Every route is for admins only: 401 without a valid
// session, 403 'Access denied - admin privileges required' for anyone whose app_metadata.role is
// not admin (checked on the server from Supabase Auth, never trusted from the client).
import { handleRequest } from '../_shared/errors.ts'
import { Router } from '../_shared/router.ts'
import { chooseAccount, getCanary, listCandidates, removeAccount, saveSettings } from './canary-accounts.ts'
import {
  getAccount,
  getCampaign,
  getUser,
  listAccounts,
  listCampaigns,
  listUsers,
  pauseAccount,
  resumeAccount,
} from './customers.ts'
import { type AdminDeps, type AdminHandler, adminOnly, defaultDeps } from './deps.ts'
import { clearLogs, listLogs } from './logs.ts'
import { getAiUsage, getRecentActivity, getStats } from './overview.ts'
import {
  getCanaryRun,
  getIncident,
  getPlatformAlerts,
  getPlatformHealth,
  listIncidents,
  resumeAction,
  runCanary,
} from './platform-health.ts'
import { getPack, publishPack, rollbackPack, tryPack, validatePack } from './platform-packs.ts'
import { getSystemInfo, killProcess, listHosts, listProcesses, restartProcess } from './processes.ts'
import { getQueueDetail, getQueueStats, listQueues, pauseQueue, resumeQueue } from './queues.ts'
import { deleteJob, getRetryStats, listFailedJobs, retryJob } from './retries.ts'
import { getWorkspace, listWorkspaces } from './workspaces.ts'

export function createAdminRouter(deps: AdminDeps): Router {
  const router = new Router('admin')
  const get = (path: string, handler: AdminHandler) => router.get(path, adminOnly(deps, handler))
  const post = (path: string, handler: AdminHandler) => router.post(path, adminOnly(deps, handler))
  const del = (path: string, handler: AdminHandler) => router.delete(path, adminOnly(deps, handler))
  const put = (path: string, handler: AdminHandler) => router.put(path, adminOnly(deps, handler))

  // product.md §7 Admin, in its order.
  get('/stats', getStats)
  get('/recent-activity', getRecentActivity)
  get('/processes', listProcesses)
  get('/system-info', getSystemInfo)
  get('/logs', listLogs)
  post('/logs/clear', clearLogs)
  get('/queues', listQueues)
  get('/queue-stats', getQueueStats)
  post('/queues/:name/pause', pauseQueue)
  post('/queues/:name/resume', resumeQueue)
  get('/retries', listFailedJobs)
  get('/retry-stats', getRetryStats)
  post('/retries/:id/retry', retryJob)
  del('/retries/:id', deleteJob)
  get('/users', listUsers)
  get('/campaigns', listCampaigns)
  get('/social-accounts', listAccounts)
  get('/workspaces', listWorkspaces)

  // Actions and details behind the tab's buttons.
  post('/processes/:name/restart', restartProcess)
  post('/processes/:name/kill', killProcess)
  get('/hosts', listHosts)
  get('/queues/:name', getQueueDetail)
  get('/users/:id', getUser)
  get('/campaigns/:id', getCampaign)
  get('/social-accounts/:id', getAccount)
  get('/workspaces/:id', getWorkspace)
  post('/social-accounts/:id/pause', pauseAccount)
  post('/social-accounts/:id/resume', resumeAccount)
  get('/ai-usage', getAiUsage)

  // Platform health: site changes, the canary, the platform packs.
  get('/platform-alerts', getPlatformAlerts)
  get('/platform-health', getPlatformHealth)
  post('/platform-health/:platform/resume', resumeAction)
  post('/platform-health/:platform/canary', runCanary)
  get('/incidents', listIncidents)
  get('/incidents/:id', getIncident)
  get('/canary-runs/:id', getCanaryRun)
  get('/canary/:platform', getCanary)
  get('/canary/:platform/candidates', listCandidates)
  put('/canary/:platform/settings', saveSettings)
  post('/canary/accounts', chooseAccount)
  del('/canary/accounts/:id', removeAccount)
  get('/platform-packs/:platform', getPack)
  post('/platform-packs/:platform/validate', validatePack)
  post('/platform-packs/:platform/try', tryPack)
  post('/platform-packs/:platform/publish', publishPack)
  post('/platform-packs/:platform/rollback', rollbackPack)
  return router
}

/** The whole function as Deno.serve runs it: CORS, routing, JSON errors. */
export function createAdminHandler(deps: AdminDeps = defaultDeps()): (req: Request) => Promise<Response> {
  return handleRequest(createAdminRouter(deps).handle)
}
