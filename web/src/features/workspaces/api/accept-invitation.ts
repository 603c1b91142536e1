import { supabase } from '@/lib/supabase'

/** Joins the invitation's workspace and makes it active; the database's words when it cannot. */
export async function acceptInvitation(token: string): Promise<string> {
  const { data, error } = await supabase.rpc('accept_invitation', { p_token: token })
  if (error) throw new Error(error.message)
  return data
}
