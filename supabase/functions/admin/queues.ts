// The Queues tab: every pg-boss queue with its jobs by state, the totals, Pause / Resume (a row in
// paused_queues: the runner stops fetching that queue's jobs within one poll) and Details.
import type { QueueStats } from '@reachflow/domain'
import { jsonResponse, notFound } from '../_shared/errors.ts'
import { fromJson, z } from '../_shared/json.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'
import { num, type QueueRow, toQueue } from './views.ts'

export const QUEUE_NOT_FOUND = 'Queue not found'

const figure = z.union([z.number(), z.string()])
const queueStats = z.object({
  totalJobs: figure,
  activeJobs: figure,
  failedJobs: figure,
  jobsPerHour: figure,
})
/** The Details panel's settings and newest jobs, passed on as the SQL writes them (null: no such queue). */
const queueDetail = z.record(z.string(), z.json()).nullable()

const queueName = (params: Record<string, string>) => {
  const name = params.name ?? ''
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name)) throw notFound(QUEUE_NOT_FOUND)
  return name
}

async function queueRows(ctx: AdminContext): Promise<QueueRow[]> {
  return await rpc(ctx.db, 'admin_queue_overview')
}

export async function listQueues(_req: Request, ctx: AdminContext): Promise<Response> {
  return jsonResponse((await queueRows(ctx)).map(toQueue))
}

export async function getQueueStats(_req: Request, { db }: AdminContext): Promise<Response> {
  const stats = fromJson(queueStats, await rpc(db, 'admin_queue_stats'), 'admin_queue_stats')
  return jsonResponse({
    totalJobs: num(stats.totalJobs),
    activeJobs: num(stats.activeJobs),
    failedJobs: num(stats.failedJobs),
    jobsPerHour: num(stats.jobsPerHour),
  } satisfies QueueStats)
}

/** GET /queues/:name: settings, paused by whom, and the newest jobs (the Details button). */
export async function getQueueDetail(_req: Request, ctx: AdminContext): Promise<Response> {
  const name = queueName(ctx.params)
  const detail = fromJson(
    queueDetail,
    await rpc(ctx.db, 'admin_queue_detail', { p_name: name }),
    'admin_queue_detail',
  )
  if (!detail) throw notFound(QUEUE_NOT_FOUND)
  const row = (await queueRows(ctx)).find((q) => q.name === name)
  return jsonResponse({ ...detail, ...(row ? { counts: toQueue(row) } : {}) })
}

function setPaused(paused: boolean) {
  return async (_req: Request, ctx: AdminContext): Promise<Response> => {
    const name = queueName(ctx.params)
    const known = await rpc(ctx.db, 'admin_set_queue_paused', {
      p_name: name,
      p_paused: paused,
      p_by: ctx.admin.id,
    })
    if (!known) throw notFound(QUEUE_NOT_FOUND)
    await writeAuditLog(ctx.db, ctx.admin, `Queue ${name} ${paused ? 'paused' : 'resumed'}`, { queue: name })
    const row = (await queueRows(ctx)).find((q) => q.name === name)
    if (!row) throw notFound(QUEUE_NOT_FOUND)
    return jsonResponse(toQueue(row))
  }
}

export const pauseQueue = setPaused(true)
export const resumeQueue = setPaused(false)
