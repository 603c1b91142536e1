// The one place pages and features ask what the signed-in person may do in the active workspace:
// the workspace, their role there, and the abilities the role matrix gives it (@reachflow/domain).
import { abilitiesOf, type RoleAbilities, type WorkspaceRoleName } from '@reachflow/domain'
import { useEffect } from 'react'
import { useAuth } from '../auth-store'
import { loadWorkspaces, useWorkspaceStore, type WorkspaceSummary } from './workspace-store'

export interface WorkspaceRole {
  workspace: WorkspaceSummary | null
  workspaces: WorkspaceSummary[]
  role: WorkspaceRoleName | null
  can: RoleAbilities
  /** True until the person's workspaces are known: hide nothing and show nothing role-bound yet. */
  loading: boolean
  error: string | null
}

export function useWorkspaceRole(): WorkspaceRole {
  const userId = useAuth((s) => s.user?.id ?? null)
  const { workspaces, status, error } = useWorkspaceStore()
  useEffect(() => {
    if (userId) void loadWorkspaces(userId)
  }, [userId])
  const workspace = workspaces.find((w) => w.isActive) ?? null
  const role = workspace?.role ?? null
  return {
    workspace,
    workspaces,
    role,
    can: abilitiesOf(role),
    loading: status === 'idle' || status === 'loading',
    error,
  }
}

/**
 * Whether the person may change the workspace's accounts, scraping, campaigns, automations and
 * contacts (a viewer reads them only). True while the role is loading, as the dashboard's header
 * does: the server refuses anyway, and a known editor never sees buttons blink in.
 */
export function useCanEditWorkspace(): boolean {
  const { can, loading } = useWorkspaceRole()
  return loading || can.editWorkspace
}
