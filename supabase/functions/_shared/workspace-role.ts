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

/** The caller's active workspace and role there; 403 unless the role is one of `roles`. */
export async function requireWorkspaceRole(
  db: SupabaseClient,
  roles: readonly WorkspaceRoleName[],
): Promise<{ workspaceId: string; role: WorkspaceRoleName }> {
  const { data, error } = await db.rpc('active_workspace_plan').maybeSingle()
  if (error) throw new Error(`Reading the active workspace failed: ${error.message}`)
  if (!data) throw forbidden(NOT_A_MEMBER)
  if (!roles.includes(data.role)) throw forbidden(ROLE_REFUSED)
  return { workspaceId: data.workspace_id, role: data.role }
}
