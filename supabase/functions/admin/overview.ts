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

interface AiUsageRow {
  user_id: string
  email: string
  requests: number
  tokens: number
  denied: number
  failures: number
  request_limit: number
  token_limit: number
  day: string
}

/** GET /ai-usage: each customer's AI use today (issue 21), heaviest first, with the daily limits. */
export async function getAiUsage(_req: Request, { db }: AdminContext): Promise<Response> {
  const rows = await rpc<AiUsageRow[]>(db, 'admin_ai_usage', { p_limit: 200 })
  const limits = await db.from('ai_settings').select('requests_per_day, tokens_per_day').maybeSingle()
  const settings = limits.data as { requests_per_day: number; tokens_per_day: number } | null
  return jsonResponse({
    day: new Date().toISOString().slice(0, 10),
    requestLimit: settings?.requests_per_day ?? 0,
    tokenLimit: settings?.tokens_per_day ?? 0,
    customers: rows.map((r) => ({
      userId: r.user_id,
      email: r.email,
      requests: num(r.requests),
      tokens: num(r.tokens),
      denied: num(r.denied),
      failures: num(r.failures),
      exhausted: num(r.requests) >= num(r.request_limit) || num(r.tokens) >= num(r.token_limit),
    })),
  })
}
