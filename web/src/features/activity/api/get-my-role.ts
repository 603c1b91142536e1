import type { Database } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

export type WorkspaceRole = Database['public']['Enums']['workspace_role']

/** The signed-in person's role in their active workspace (null when they belong to none). */
export async function getMyRole(): Promise<WorkspaceRole | null> {
  const { data, error } = await supabase.rpc('my_workspaces')
  if (error) throw new Error(`Could not load your workspace: ${error.message}`)
  return data.find((w) => w.is_active)?.role ?? null
}

/** Who reads the activity log (its row-level security says the same). */
export const canReadActivity = (role: WorkspaceRole | null | undefined) =>
  role === 'owner' || role === 'admin'
