import { supabase } from '@/lib/supabase'

export async function transferOwnership(workspaceId: string, userId: string): Promise<void> {
  const { error } = await supabase.rpc('transfer_ownership', {
    p_workspace_id: workspaceId,
    p_user_id: userId,
  })
  if (error) throw new Error(error.message)
}
