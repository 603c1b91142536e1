import type { WorkspaceRoleName } from '@reachflow/domain'
import { getWorkspacePeople } from '@/lib/workspace-people'

export interface WorkspaceMember {
  userId: string
  name: string | null
  email: string
  role: WorkspaceRoleName
  joinedAt: string
}

export async function listMembers(workspaceId: string): Promise<WorkspaceMember[]> {
  return (await getWorkspacePeople(workspaceId)).map((m) => ({
    userId: m.user_id,
    name: m.full_name,
    email: m.email,
    role: m.role,
    joinedAt: m.joined_at,
  }))
}
