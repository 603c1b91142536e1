import { supabase } from '@/lib/supabase'

export async function leaveWorkspace(workspaceId: string): Promise<void> {
  const { error } = await supabase.rpc('leave_workspace', { p_workspace_id: workspaceId })
  if (error) throw new Error(error.message)
}
