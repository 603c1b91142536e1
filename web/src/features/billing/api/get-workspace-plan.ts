import type { RpcResult } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

type PlanRow = RpcResult<'active_workspace_plan'>[number]

/** The active workspace as billing sees it: what any member may know about its plan and owner. */
export interface WorkspacePlan {
  workspaceId: string
  name: string
  role: PlanRow['role']
  isOwner: boolean
  planType: string
  status: string
  /** False when its campaigns send nothing for want of a plan. */
  sends: boolean
  ownerName: string | null
}

/** Null when the person belongs to no workspace (nothing to show). Errors are thrown. */
export async function getWorkspacePlan(): Promise<WorkspacePlan | null> {
  const { data, error } = await supabase.rpc('active_workspace_plan').maybeSingle()
  if (error) throw new Error(`Could not load your workspace's plan: ${error.message}`)
  if (!data) return null
  return {
    workspaceId: data.workspace_id,
    name: data.name,
    role: data.role,
    isOwner: data.role === 'owner',
    planType: data.plan_type,
    status: data.subscription_status,
    sends: data.sends,
    ownerName: data.owner_name,
  }
}
