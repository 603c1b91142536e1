// The Workspaces tab: every workspace with its owner, members by role, plan and accounts used against
// its limit, and a workspace's detail with each member.
import type { AdminWorkspace, WorkspaceRoleName } from '@reachflow/domain'
import { jsonResponse, notFound } from '../_shared/errors.ts'
import { parseId, parseQuery, z } from '../_shared/validation.ts'
import { type AdminContext, rpc } from './deps.ts'
import { num } from './views.ts'

export const WORKSPACE_NOT_FOUND = 'Workspace not found'

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(500) })
const ROLES: readonly WorkspaceRoleName[] = ['owner', 'admin', 'editor', 'agent', 'viewer']

/** The SQL's {role: count} object, keeping only the roles the product knows. */
function roleCounts(value: unknown): AdminWorkspace['roles'] {
  const counts: AdminWorkspace['roles'] = {}
  if (!value || typeof value !== 'object') return counts
  for (const role of ROLES) {
    const count = (value as Record<string, unknown>)[role]
    if (count !== undefined) counts[role] = num(count)
  }
  return counts
}

export async function listWorkspaces(_req: Request, { db, url }: AdminContext): Promise<Response> {
  const { limit } = parseQuery(url, listQuery)
  const rows = await rpc(db, 'admin_workspaces', { p_limit: limit })
  return jsonResponse(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      owner_email: row.owner_email,
      member_count: num(row.member_count),
      roles: roleCounts(row.roles),
      plan_type: row.plan_type,
      subscription_status: row.subscription_status,
      accounts_used: num(row.accounts_used),
      account_limit: num(row.account_limit),
      created_at: row.created_at,
    })) satisfies AdminWorkspace[],
  )
}

/** GET /workspaces/:id: plan, accounts against the limit, and every member with their role. */
export async function getWorkspace(_req: Request, { db, params }: AdminContext): Promise<Response> {
  const id = parseId(params.id, WORKSPACE_NOT_FOUND)
  const found = await rpc(db, 'admin_workspace_detail', { p_workspace_id: id })
  if (found === null) throw notFound(WORKSPACE_NOT_FOUND)
  return jsonResponse(found)
}
