import { supabase } from '@/lib/supabase'

export async function revokeInvitation(invitationId: string): Promise<void> {
  const { error } = await supabase.rpc('revoke_invitation', { p_invitation_id: invitationId })
  if (error) throw new Error(error.message)
}
