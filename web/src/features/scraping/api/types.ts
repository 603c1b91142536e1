export type SourceType = 'followers' | 'following' | 'hashtag' | 'keyword'

/** Spec §3 "Scraping filters". */
export interface ScrapingFilters {
  min_followers: number
  max_followers: number | null
  verified_only: boolean
  has_bio: boolean
  exclude_business: boolean
}

/** Spec §3 "Scraping campaign". */
export interface ScrapingCampaign {
  id: string
  name: string
  status: string
  account_id: string | null
  sources: { type: SourceType; value: string }[]
  target_count: number
  filters: ScrapingFilters
  collected_count: number
  leads_collected: number
  error_message: string | null
  started_at: string | null
  completed_at: string | null
  last_run_at: string | null
  next_run_at: string | null
  created_at: string
  updated_at: string
  account: { id: string; username: string; status: string } | null
  platform: { name: string; display_name: string } | null
  lead_list: { id: string; name: string; lead_count: number } | null
  /** AI lead filtering (issue 21): the ideal customer (null: off), the minimum score, and the counts. */
  ai_ideal_customer?: string | null
  ai_min_score?: number
  ai_kept?: number
  ai_skipped?: number
  ai_unscored?: number
}
