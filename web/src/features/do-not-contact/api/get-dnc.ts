import { dncOverviewSchema } from '@/lib/database/do-not-contact'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'
import type { DncOverview, DncPage, DncPlatform } from './types'

export const DNC_PAGE_SIZE = 25

/** The longest search the database accepts (do_not_contact_entries refuses a longer one). */
export const DNC_SEARCH_MAX = 100

/** rpc/do_not_contact_overview: how many people, how many leads they skipped, the opt-out words. */
export async function getDncOverview(): Promise<DncOverview> {
  const { data, error } = await supabase.rpc('do_not_contact_overview')
  if (error) throw new Error(`Could not load your do-not-contact list: ${error.message}`)
  return parseJson(dncOverviewSchema, data, 'Your do-not-contact list')
}

/** rpc/do_not_contact_entries: one page, newest first, with search and a platform filter. */
export async function getDncPage(
  search: string,
  platform: DncPlatform | '',
  page: number,
  size: number = DNC_PAGE_SIZE,
): Promise<DncPage> {
  const { data, error } = await supabase.rpc('do_not_contact_entries', {
    p_search: search.trim() || null,
    p_platform: platform || null,
    p_limit: size,
    p_offset: page * size,
  })
  if (error) throw new Error(`Could not load your do-not-contact list: ${error.message}`)
  return {
    rows: data.map(({ total: _total, ...row }) => row),
    total: data[0]?.total ?? 0,
  }
}
