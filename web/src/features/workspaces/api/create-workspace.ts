import { z } from 'zod'
import { supabase } from '@/lib/supabase'

/** The same rule the database applies (create_workspace / rename_workspace), for the form. */
export const workspaceNameSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Workspace name is required')
    .max(60, 'Workspace name must be 60 characters or less'),
})
export type WorkspaceNameInput = z.infer<typeof workspaceNameSchema>

/** Creates a workspace owned by the caller; the database makes it the active one. */
export async function createWorkspace(input: WorkspaceNameInput): Promise<string> {
  const { data, error } = await supabase.rpc('create_workspace', {
    p_name: workspaceNameSchema.parse(input).name,
  })
  if (error) throw new Error(error.message)
  return data
}
