// The Retries tab: failed jobs with attempts / maxAttempts and their error, the cards, Retry (the
// job goes back to pg-boss's retry state, as boss.retry() does; refused once it has had its most
// attempts) and Delete.
import type { JobDeleted, JobRetried, RetryStats } from '@reachflow/domain'
import { conflict, jsonResponse, notFound, unprocessable } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { parseId, parseQuery, z } from '../_shared/validation.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'
import { num, toFailedJob } from './views.ts'

export const JOB_NOT_FOUND = 'Job not found'
export const RETRY_MESSAGES = {
  notFailed: 'Only failed jobs can be retried',
  maxAttempts: (attempts: number, max: number) =>
    `This job has had ${attempts} of ${max} attempts and cannot be retried again. Fix the cause, then delete it.`,
  notFailedDelete: 'Only failed jobs can be deleted here',
} as const

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) })

export async function listFailedJobs(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc(db, 'admin_failed_jobs', { p_limit: limit })
  return jsonResponse(rows.map(toFailedJob))
}

export async function getRetryStats(_req: Request, { db }: AdminContext): Promise<Response> {
  const stats = fromJson(retryStats, await rpc(db, 'admin_retry_stats'), 'admin_retry_stats')
  return jsonResponse({
    failedJobs: num(stats.failedJobs),
    retryingJobs: num(stats.retryingJobs),
    maxRetriesJobs: num(stats.maxRetriesJobs),
    successRate: num(stats.successRate),
  } satisfies RetryStats)
}

const figure = z.union([z.number(), z.string()])
const retryStats = z.object({
  failedJobs: figure,
  retryingJobs: figure,
  maxRetriesJobs: figure,
  successRate: figure,
})
const retryOutcome = z.object({
  outcome: z.enum(['retried', 'not_found', 'not_failed', 'max_attempts']),
  queue: z.string().optional(),
  attempts: figure.optional(),
  maxAttempts: figure.optional(),
})
const deleteOutcome = z.object({ outcome: z.string(), queue: z.string().optional() })

export async function retryJob(_req: Request, ctx: AdminContext): Promise<Response> {
  const id = parseId(ctx.params.id, JOB_NOT_FOUND)
  const result = fromJson(
    retryOutcome,
    await rpc(ctx.db, 'admin_retry_job', { p_job_id: id }),
    'admin_retry_job',
  )
  const attempts = num(result.attempts)
  const maxAttempts = num(result.maxAttempts)
  switch (result.outcome) {
    case 'retried':
      await writeAuditLog(ctx.db, ctx.admin, `Retried job ${id.slice(-8)} (${result.queue})`, {
        jobId: id,
        queue: result.queue,
        attempts,
        maxAttempts,
      })
      return jsonResponse({ id, queue: result.queue, state: 'retry' } satisfies JobRetried)
    case 'not_failed':
      throw conflict(RETRY_MESSAGES.notFailed)
    case 'max_attempts':
      throw unprocessable(RETRY_MESSAGES.maxAttempts(attempts, maxAttempts), { attempts, maxAttempts })
    default:
      throw notFound(JOB_NOT_FOUND)
  }
}

export async function deleteJob(_req: Request, ctx: AdminContext): Promise<Response> {
  const id = parseId(ctx.params.id, JOB_NOT_FOUND)
  const result = fromJson(
    deleteOutcome,
    await rpc(ctx.db, 'admin_delete_job', { p_job_id: id }),
    'admin_delete_job',
  )
  if (result.outcome === 'not_failed') throw conflict(RETRY_MESSAGES.notFailedDelete)
  if (result.outcome !== 'deleted') throw notFound(JOB_NOT_FOUND)
  await writeAuditLog(ctx.db, ctx.admin, `Deleted failed job ${id.slice(-8)} (${result.queue})`, {
    jobId: id,
    queue: result.queue,
  })
  return jsonResponse({ id, deleted: true } satisfies JobDeleted)
}
