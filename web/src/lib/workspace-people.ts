// A workspace's members: the one read (public.workspace_member_list) behind the Members page, the
// inbox (assignment, notes' authors) and the activity page (its member filter). Every role of a
// member may read it, so an agent can choose whom to assign a conversation to.
import type { RpcResult } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

/** A member of a workspace, as public.workspace_member_list answers. */
export type WorkspacePerson = RpcResult<'workspace_member_list'>[number]

/** A workspace's members with e-mail, name, role and when they joined, by role then name. */
export async function getWorkspacePeople(workspaceId: string): Promise<WorkspacePerson[]> {
  const { data, error } = await supabase.rpc('workspace_member_list', { p_workspace_id: workspaceId })
  if (error) throw new Error(`Could not load the workspace's members: ${error.message}`)
  return data
}

/** How a member is named: their name, else their e-mail; "You" for the signed-in one. */
export function personName(person: WorkspacePerson | undefined, me: string | undefined): string {
  if (!person) return 'A former member'
  if (person.user_id === me) return 'You'
  return person.full_name?.trim() || person.email || 'A member'
}

export const findPerson = (people: readonly WorkspacePerson[], id: string | null) =>
  id ? people.find((p) => p.user_id === id) : undefined
