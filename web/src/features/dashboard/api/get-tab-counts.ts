import { type TabCounts, tabCountsSchema } from '@/lib/database/dashboard'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'

export type { TabCounts }

/**
 * One call, rpc/dashboard_counts: the badges used to be six HEAD requests per
 * refresh. Leads counts people, as the Leads tab lists them.
 */
export async function getTabCounts(): Promise<TabCounts> {
  const { data, error } = await supabase.rpc('dashboard_counts')
  if (error) throw new Error(`Could not count your records: ${error.message}`)
  return parseJson(tabCountsSchema, data, 'rpc/dashboard_counts')
}
