import { supabase } from '@/lib/supabase'

/** Removes a member; the database refuses their very next request. */
export async function removeMember(workspaceId: string, userId: string): Promise<void> {
  const { error } = await supabase.rpc('remove_member', { p_workspace_id: workspaceId, p_user_id: userId })
  if (error) throw new Error(error.message)
}
