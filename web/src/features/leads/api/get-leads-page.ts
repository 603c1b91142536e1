import type { Tables } from '@reachflow/db'
import { supabase } from '@/lib/supabase'

/**
 * A row of public.lead_people: one person across sources (product.md §3 "Combined lead view", one row per
 * person, not per source row). `source`/`campaign_id`/`campaign_name` name the source behind the
 * latest status; `sources` lists every campaign the person is in.
 */
export type Lead = Pick<
  Tables<'lead_people'>,
  | 'id'
  | 'source'
  | 'campaign_id'
  | 'campaign_name'
  | 'username'
  | 'display_name'
  | 'email'
  | 'company'
  | 'title'
  | 'avatar'
  | 'status'
  | 'last_activity'
  | 'platform'
  | 'sources'
  | 'campaign_ids'
  | 'source_count'
>

export interface LeadQuery {
  page: number
  pageSize: number
  search: string
  campaignId: string
  status: string
}

const LEAD_COLUMNS =
  'id, source, campaign_id, campaign_name, username, display_name, email, company, title, avatar, status, last_activity, platform, sources, campaign_ids, source_count'

/** PostgREST `or` values are comma separated: keep the user's text from breaking the list. */
function searchPattern(text: string): string {
  return `*${text.replace(/[,()*"\\]/g, ' ').trim()}*`
}

/** The people matching the filters, newest activity first (the leads table's columns). */
export function leadsQuery(q: Omit<LeadQuery, 'page' | 'pageSize'>, count?: 'exact') {
  let query = supabase.from('lead_people').select(LEAD_COLUMNS, count ? { count } : undefined)
  if (q.campaignId) query = query.contains('campaign_ids', [q.campaignId])
  if (q.status) query = query.eq('status', q.status)
  const text = q.search.trim()
  if (text) {
    const like = searchPattern(text)
    query = query.or(
      `username.ilike.${like},display_name.ilike.${like},email.ilike.${like},company.ilike.${like},title.ilike.${like}`,
    )
  }
  return query.order('last_activity', { ascending: false }).order('id', { ascending: false })
}

/** One page of people and how many match, counted on the server: the client never fetches all leads. */
export async function getLeadsPage(q: LeadQuery): Promise<{ rows: Lead[]; total: number }> {
  const from = q.page * q.pageSize
  const { data, error, count } = await leadsQuery(q, 'exact').range(from, from + q.pageSize - 1)
  if (error) throw new Error(`Could not load your leads: ${error.message}`)
  return { rows: data, total: count ?? 0 }
}
