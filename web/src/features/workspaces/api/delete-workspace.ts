import { supabase } from '@/lib/supabase'

/** Deletes the workspace and everything it owns; the typed name must equal its name. */
export async function deleteWorkspace(workspaceId: string, typedName: string): Promise<void> {
  const { error } = await supabase.rpc('delete_workspace', {
    p_workspace_id: workspaceId,
    p_confirm_name: typedName,
  })
  if (error) throw new Error(error.message)
}
