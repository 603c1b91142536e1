import type { WorkspaceRoleName } from '@reachflow/domain'
import { supabase } from '@/lib/supabase'

export async function changeMemberRole(
  workspaceId: string,
  userId: string,
  role: WorkspaceRoleName,
): Promise<void> {
  const { error } = await supabase.rpc('change_member_role', {
    p_workspace_id: workspaceId,
    p_user_id: userId,
    p_role: role,
  })
  if (error) throw new Error(error.message)
}
