// GET /stats and GET /recent-activity: the Overview tab's four cards and its activity list.
import { jsonResponse } from '../_shared/errors.ts'
import { parseQuery, z } from '../_shared/validation.ts'
import { type AdminContext, rpc } from './deps.ts'
import { type ActivityRow, num, toActivity } from './views.ts'

interface StatsJson {
  users: Record<'total' | 'active' | 'trial' | 'paid', number>
  campaigns: Record<'total' | 'active' | 'paused' | 'completed', number>
  accounts: Record<'total' | 'verified' | 'warming' | 'flagged', number>
  system: Record<'uptime' | 'activeWorkers' | 'errorRate', number>
}

const counts = <K extends string>(source: Record<K, unknown>, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, num(source[key])])) as Record<K, number>

export async function getStats(_req: Request, { db }: AdminContext): Promise<Response> {
  const stats = await rpc<StatsJson>(db, 'admin_dashboard_stats')
  return jsonResponse({
    users: counts(stats.users, ['total', 'active', 'trial', 'paid']),
    campaigns: counts(stats.campaigns, ['total', 'active', 'paused', 'completed']),
    accounts: counts(stats.accounts, ['total', 'verified', 'warming', 'flagged']),
    system: counts(stats.system, ['uptime', 'activeWorkers', 'errorRate']),
  })
}

// Spec §9: the overview lists 5 recent activities; a longer list may be asked for.
const activityQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(5) })

export async function getRecentActivity(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, activityQuery)
  const rows = await rpc<ActivityRow[]>(db, 'admin_recent_activity', { p_limit: limit })
  return jsonResponse(rows.map(toActivity))
}
