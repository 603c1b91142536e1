// Rows from the admin_* RPCs as the admin answers of @reachflow/domain (the types the admin tab reads),
// key for key. Postgres numerics may arrive as strings, so every figure goes through num(). Pure
// functions: tested in views.test.ts without a database. The rows' types are the generated ones.
import {
  type Activity,
  type AdminLog,
  type AdminProcess,
  type AdminQueue,
  type FailedJob,
  logLevel,
  type SystemInfo,
} from '@reachflow/domain'
import type { RpcResult, Tables } from '../_shared/database.ts'

export const num = (value: unknown, fallback = 0): number => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : fallback
}

const round1 = (value: number) => Math.round(value * 10) / 10

// pg-boss 10 names a job by its queue; the Retries table also shows what kind of work it was.
const JOB_TYPES: Record<string, string> = {
  'campaign.tick': 'Send DM',
  'scrape.run': 'Scrape leads',
  'inbox.sync': 'Sync inbox',
  'warmup.step': 'Warm-up step',
  'account.test': 'Test account',
  'platform.canary': 'Platform canary',
  'instagram.token': 'Refresh Instagram token',
  'instagram.event': 'Instagram automation',
  'instagram.followup': 'Instagram follow-up',
}

export const jobType = (queue: string): string => JOB_TYPES[queue] ?? queue

export type ProcessRow = RpcResult<'admin_runner_processes'>[number]

export function toProcess(row: Pick<ProcessRow, keyof AdminProcess>): AdminProcess {
  return {
    name: row.name,
    pid: num(row.pid),
    status: row.status,
    cpu: round1(num(row.cpu)),
    memory: round1(num(row.memory)),
    uptime: Math.round(num(row.uptime)),
  }
}

export type HostRow = RpcResult<'admin_system_hosts'>[number]

/**
 * The platform's figures are those of its busiest host (runner hosts and the database's): an
 * operator needs to see the machine that is about to run out, not an average that hides it.
 */
export function systemInfo(hosts: HostRow[]): SystemInfo {
  const loads = hosts.map((h) => (h.load_average ?? []).map((v) => round1(num(v))))
  const busiest = loads.reduce<number[] | null>(
    (best, load) => ((load[0] ?? 0) > (best?.[0] ?? -1) ? load : best),
    null,
  )
  return {
    cpu: { usage: round1(Math.max(0, ...hosts.map((h) => num(h.cpu_percent)))) },
    memory: { percentage: round1(Math.max(0, ...hosts.map((h) => num(h.memory_percent)))) },
    loadAvg: busiest && busiest.length === 3 ? busiest : [0, 0, 0],
  }
}

export type QueueRow = RpcResult<'admin_queue_overview'>[number]

export function toQueue(row: QueueRow): AdminQueue {
  return {
    name: row.name,
    status: row.paused ? 'paused' : 'active',
    pending: num(row.pending),
    active: num(row.active),
    completed: num(row.completed),
    failed: num(row.failed),
    retrying: num(row.retrying),
    rate: num(row.rate_per_minute),
  }
}

export type FailedJobRow = RpcResult<'admin_failed_jobs'>[number]

export function toFailedJob(row: FailedJobRow): FailedJob {
  return {
    id: row.id,
    jobType: jobType(row.queue),
    queue: row.queue,
    failedAt: row.failed_at,
    attempts: num(row.attempts),
    maxAttempts: num(row.max_attempts),
    error: row.error?.trim() || 'No error message was recorded',
  }
}

export type LogRow = Pick<Tables<'system_logs'>, 'created_at' | 'level' | 'service' | 'message' | 'metadata'>

export const toLog = (row: LogRow): AdminLog => ({
  timestamp: row.created_at,
  level: logLevel(row.level),
  service: row.service,
  message: row.message,
  metadata: row.metadata ?? null,
})

export type ActivityRow = RpcResult<'admin_recent_activity'>[number]

export const toActivity = (row: ActivityRow): Activity => ({
  id: row.id,
  description: row.description,
  timestamp: row.timestamp,
  type: row.type,
  status: row.status,
})
