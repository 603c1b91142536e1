// The edge functions' side of the role matrix (docs/decisions.md): a route that writes asks the
// caller's role in their active workspace before it touches anything, so a viewer or an agent hears
// the workspace error itself, not a 404 or a row-level-security message, and a route that writes
// with the service role (accounts, connects, AI credits) cannot be reached by a role that only reads.
import { ROLE_NOT_ALLOWED, type WorkspaceRoleName } from '@reachflow/domain'
import type { SupabaseClient } from './clients.ts'
import { forbidden } from './errors.ts'

export const NOT_A_MEMBER = 'You are not a member of this workspace.'
export const ROLE_REFUSED = ROLE_NOT_ALLOWED

/** Accounts, scraping, lead lists, campaigns, automations, contacts and the AI that writes them. */
export const EDIT_ROLES: readonly WorkspaceRoleName[] = ['owner', 'admin', 'editor']

/** Dashboards and analytics, read: everyone but an agent, whose workspace is the inbox only. */
export const READ_ROLES: readonly WorkspaceRoleName[] = ['owner', 'admin', 'editor', 'viewer']

/**
 * One read of the active workspace per request: each request has a client of its own for its caller,
 * so a route's wrapper and its handler (the AI budget, billing) share the answer instead of asking
 * the database twice.
 */
const activeWorkspaceOf = new WeakMap<SupabaseClient, ReturnType<typeof readActiveWorkspace>>()

// Awaited here: the query builder is a thenable that asks again each time it is awaited.
async function readActiveWorkspace(db: SupabaseClient) {
  return await db.rpc('active_workspace_plan').maybeSingle()
}

/** The caller's active workspace and role there; 403 unless the role is one of `roles`. */
export async function requireWorkspaceRole(
  db: SupabaseClient,
  roles: readonly WorkspaceRoleName[],
): Promise<{ workspaceId: string; role: WorkspaceRoleName }> {
  let read = activeWorkspaceOf.get(db)
  if (!read) {
    read = readActiveWorkspace(db)
    activeWorkspaceOf.set(db, read)
  }
  const { data, error } = await read
  if (error) throw new Error(`Reading the active workspace failed: ${error.message}`)
  if (!data) throw forbidden(NOT_A_MEMBER)
  if (!roles.includes(data.role)) throw forbidden(ROLE_REFUSED)
  return { workspaceId: data.workspace_id, role: data.role }
}
