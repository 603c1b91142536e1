import { supabase } from '@/lib/supabase'
import { type WorkspaceNameInput, workspaceNameSchema } from './create-workspace'

export async function renameWorkspace(workspaceId: string, input: WorkspaceNameInput): Promise<void> {
  const { error } = await supabase.rpc('rename_workspace', {
    p_workspace_id: workspaceId,
    p_name: workspaceNameSchema.parse(input).name,
  })
  if (error) throw new Error(error.message)
}
