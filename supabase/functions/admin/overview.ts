// GET /stats and GET /recent-activity: the Overview tab's four cards and its activity list.
import type { AdminStats, AiUsage } from '@reachflow/domain'
import { jsonResponse } from '../_shared/errors.ts'
import { fromJson } from '../_shared/json.ts'
import { parseQuery, z } from '../_shared/validation.ts'
import { type AdminContext, rpc } from './deps.ts'
import { num, toActivity } from './views.ts'

const figure = z.union([z.number(), z.string()])
const dashboardStats = z.object({
  users: z.object({ total: figure, active: figure, trial: figure, paid: figure }),
  campaigns: z.object({ total: figure, active: figure, paused: figure, completed: figure }),
  accounts: z.object({ total: figure, verified: figure, warming: figure, flagged: figure }),
  system: z.object({ uptime: figure, activeWorkers: figure, errorRate: figure }),
})
const USERS = ['total', 'active', 'trial', 'paid'] as const
const CAMPAIGNS = ['total', 'active', 'paused', 'completed'] as const
const ACCOUNTS = ['total', 'verified', 'warming', 'flagged'] as const
const SYSTEM = ['uptime', 'activeWorkers', 'errorRate'] as const

const counts = <K extends string>(
  source: Record<K, number | string>,
  keys: readonly K[],
): Record<K, number> => Object.fromEntries(keys.map((key) => [key, num(source[key])])) as Record<K, number>

export async function getStats(_req: Request, { db }: AdminContext): Promise<Response> {
  const stats = fromJson(dashboardStats, await rpc(db, 'admin_dashboard_stats'), 'admin_dashboard_stats')
  return jsonResponse({
    users: counts(stats.users, USERS),
    campaigns: counts(stats.campaigns, CAMPAIGNS),
    accounts: counts(stats.accounts, ACCOUNTS),
    system: counts(stats.system, SYSTEM),
  } satisfies AdminStats)
}

// product.md §9: the overview lists 5 recent activities; a longer list may be asked for.
const activityQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(5) })

export async function getRecentActivity(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, activityQuery)
  const rows = await rpc(db, 'admin_recent_activity', { p_limit: limit })
  return jsonResponse(rows.map(toActivity))
}

/** GET /ai-usage: each workspace's AI use today, heaviest first, with the daily limits. */
export async function getAiUsage(_req: Request, { db }: AdminContext): Promise<Response> {
  const rows = await rpc(db, 'admin_ai_usage', { p_limit: 200 })
  const { data: settings } = await db
    .from('ai_settings')
    .select('requests_per_day, tokens_per_day')
    .maybeSingle()
  return jsonResponse({
    day: new Date().toISOString().slice(0, 10),
    requestLimit: settings?.requests_per_day ?? 0,
    tokenLimit: settings?.tokens_per_day ?? 0,
    workspaces: rows.map((r) => ({
      workspaceId: r.workspace_id,
      name: r.workspace_name,
      ownerEmail: r.owner_email,
      requests: num(r.requests),
      tokens: num(r.tokens),
      denied: num(r.denied),
      failures: num(r.failures),
      exhausted: num(r.requests) >= num(r.request_limit) || num(r.tokens) >= num(r.token_limit),
    })),
  } satisfies AiUsage)
}
