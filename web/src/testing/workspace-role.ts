// Puts the signed-in person in one workspace with one role, as my_workspaces would answer, so a
// component reads its abilities through the real role hook (useWorkspaceRole).
import type { WorkspaceRoleName } from '@reachflow/domain'
import { useWorkspaceStore } from '@/lib/workspace/workspace-store'

export function workAs(role: WorkspaceRoleName): void {
  useWorkspaceStore.setState({
    status: 'ready',
    error: null,
    userId: null,
    workspaces: [{ id: 'ws-1', name: 'Client One', role, isActive: true, memberCount: 2 }],
  })
}
