import type { WorkspaceRoleName } from '@reachflow/domain'
import { supabase } from '@/lib/supabase'

export interface PendingInvitation {
  id: string
  email: string
  role: WorkspaceRoleName
  expiresAt: string
  lastSentAt: string
}

/** Invitations not yet used or revoked, newest first (owners and admins read them; RLS). Expired ones stay, to resend. */
export async function listInvitations(workspaceId: string): Promise<PendingInvitation[]> {
  const { data, error } = await supabase
    .from('workspace_invitations')
    .select('id, email, role, expires_at, last_sent_at')
    .eq('workspace_id', workspaceId)
    .is('accepted_at', null)
    .is('revoked_at', null)
    .order('created_at', { ascending: false })
  if (error) throw new Error(error.message)
  return data.map((i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    expiresAt: i.expires_at,
    lastSentAt: i.last_sent_at,
  }))
}
