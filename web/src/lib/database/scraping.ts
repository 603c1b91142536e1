// A scraping campaign as the list and the detail read it: the generated row's columns with its jsonb
// sources and filters in the shapes internal.validate_scraping_campaign keeps them.

import type { Tables } from '@reachflow/db'
import { z } from 'zod'

export const sourceTypeSchema = z.enum(['followers', 'following', 'hashtag', 'keyword'])
export type SourceType = z.infer<typeof sourceTypeSchema>
export const sourcesSchema = z.array(z.object({ type: sourceTypeSchema, value: z.string() }))

/** product.md §3 "Scraping filters" (the database fills in the defaults of missing ones). */
export const filtersSchema = z.object({
  min_followers: z.number(),
  max_followers: z.number().nullable(),
  verified_only: z.boolean(),
  has_bio: z.boolean(),
  exclude_business: z.boolean(),
})
export type ScrapingFilters = z.infer<typeof filtersSchema>

/** product.md §3 "Scraping campaign", with its account, platform and lead list. */
export type ScrapingCampaign = Pick<
  Tables<'scraping_campaigns'>,
  | 'id'
  | 'name'
  | 'status'
  | 'account_id'
  | 'target_count'
  | 'collected_count'
  | 'leads_collected'
  | 'error_message'
  | 'started_at'
  | 'completed_at'
  | 'last_run_at'
  | 'next_run_at'
  | 'created_at'
  | 'updated_at'
  | 'ai_ideal_customer'
  | 'ai_min_score'
  | 'ai_kept'
  | 'ai_skipped'
  | 'ai_unscored'
> & {
  sources: z.infer<typeof sourcesSchema>
  filters: ScrapingFilters
  account: Pick<Tables<'social_accounts'>, 'id' | 'username' | 'status'> | null
  platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null
  lead_list: Pick<Tables<'lead_lists'>, 'id' | 'name' | 'lead_count'> | null
}
