import type { WorkspaceRoleName } from '@reachflow/domain'
import { supabase } from '@/lib/supabase'

export interface WorkspaceMember {
  userId: string
  name: string | null
  email: string
  role: WorkspaceRoleName
  joinedAt: string
}

export async function listMembers(workspaceId: string): Promise<WorkspaceMember[]> {
  const { data, error } = await supabase.rpc('workspace_member_list', { p_workspace_id: workspaceId })
  if (error) throw new Error(error.message)
  return data.map((m) => ({
    userId: m.user_id,
    name: m.full_name,
    email: m.email,
    role: m.role,
    joinedAt: m.joined_at,
  }))
}
