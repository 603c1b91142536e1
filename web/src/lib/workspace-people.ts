// The active workspace's members, read by the inbox (assignment, notes' authors) and the activity
// page (its member filter). A small read of its own until the members page's list replaces it.
import type { RpcResult } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

/** A member of the active workspace (public.workspace_people). */
export type WorkspacePerson = RpcResult<'workspace_people'>[number]

/** The active workspace's members with their e-mail and role, by name. */
export async function getWorkspacePeople(): Promise<WorkspacePerson[]> {
  const { data, error } = await supabase.rpc('workspace_people')
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
