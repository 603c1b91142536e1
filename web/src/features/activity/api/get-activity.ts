import { supabase } from '@/lib/supabase'
import type { ActivityEntry, ActivityFilters } from './types'
import { REACHFLOW_ACTOR } from './types'

/** Lines per page of the Activity page. */
export const ACTIVITY_PAGE_SIZE = 50

/** The start of a YYYY-MM-DD day in the viewer's time zone, as an instant. */
const startOfDay = (day: string, plusDays = 0) => {
  const [year, month, date] = day.split('-').map(Number)
  return new Date(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + plusDays).toISOString()
}

/**
 * The log's lines matching the filters, newest first, rows `from`..`to`, with how many match in all.
 * Row-level security limits them to the active workspace, for its owners and admins.
 */
export async function getActivity(
  filters: ActivityFilters,
  range: { from: number; to: number },
): Promise<{ entries: ActivityEntry[]; total: number }> {
  let query = supabase
    .from('workspace_activity')
    .select('id, at, actor_id, actor_label, action, subject_type, subject_label, details', { count: 'exact' })
    .order('at', { ascending: false })
    .order('id')
    .range(range.from, range.to)
  if (filters.action) query = query.eq('action', filters.action)
  // Reachflow's own lines have no actor at all; a deleted login keeps its e-mail in actor_label
  if (filters.actor === REACHFLOW_ACTOR) query = query.is('actor_label', null)
  else if (filters.actor) query = query.eq('actor_id', filters.actor)
  if (filters.from) query = query.gte('at', startOfDay(filters.from))
  if (filters.to) query = query.lt('at', startOfDay(filters.to, 1))
  const { data, error, count } = await query
  if (error) throw new Error(`Could not load the activity: ${error.message}`)
  return { entries: data, total: count ?? data.length }
}
