// GET /logs?level=&service=&limit=100 and POST /logs/clear: the Logs tab's lines, newest first.
import type { LogsCleared } from '@reachflow/domain'
import { must } from '../_shared/db-errors.ts'
import { jsonResponse } from '../_shared/errors.ts'
import { parseQuery, z } from '../_shared/validation.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'
import { num, toLog } from './views.ts'

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const

// 'all' means no filter. Services are free-form in system_logs (product.md §2 lists
// instagram, twitter, scheduler, warmup, api; the runner adds its own), so any sane name filters.
// The product's client sends `level=&service=` for "all": an empty value is no filter.
const blankIsAll = (value: unknown) => (value === '' ? undefined : value)
const logsQuery = z.object({
  level: z.preprocess(blankIsAll, z.enum(['all', ...LOG_LEVELS]).default('all')),
  service: z.preprocess(
    blankIsAll,
    z
      .string()
      .regex(/^(all|[a-z][a-z0-9_.-]{0,49})$/, 'service must be all or a service name')
      .default('all'),
  ),
  limit: z.coerce.number().int().min(1).max(500).default(100),
})

export async function listLogs(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { level, service, limit } = parseQuery(url, logsQuery)
  let query = db
    .from('system_logs')
    .select('created_at, level, service, message, metadata')
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(limit)
  if (level !== 'all') query = query.eq('level', level)
  if (service !== 'all') query = query.eq('service', service)
  const rows = must(await query)
  return jsonResponse(rows.map(toLog))
}

export async function clearLogs(_req: Request, { db, admin }: AdminContext): Promise<Response> {
  const cleared = num(await rpc(db, 'admin_clear_logs'))
  // The one line left says who emptied the log and when.
  await writeAuditLog(db, admin, `Cleared ${cleared} log line${cleared === 1 ? '' : 's'}`, { cleared })
  return jsonResponse({ cleared } satisfies LogsCleared)
}
