/** Spec §3 "Sequences". */
export interface Sequences {
  messages: string[]
  noFirstnameMessage?: string
  followUpEnabled: boolean
  followUpMessages: string[]
  followUpDays: number
}

/** Spec §3 "Schedule" (plus randomDaysOff, default true). */
export interface Schedule {
  timezone: string
  timeFrom: string
  timeTo: string
  activeDays: string[]
  randomDaysOff?: boolean
}

/** A DM campaign as the cards and the detail view read it (spec §3 "DM campaign"). */
export interface Campaign {
  id: string
  name: string
  /** Each DM rewritten per lead by the AI at send time, the template on any failure (issue 21). */
  ai_personalization?: boolean
  status: string
  industry: string | null
  stage: string | null
  account_id: string | null
  scraping_campaign_id: string | null
  messages_sent: number
  messages_failed: number
  total_attempts: number
  response_count: number
  daily_message_limit: number
  target_count: number
  message_template: string | null
  sequences: Sequences
  schedule: Schedule
  run_immediately: boolean
  error_message: string | null
  /** Issue 21: send only a clear winner once every opening variant has this many sends; null = off. */
  winner_after_sends: number | null
  winner_chosen_at: string | null
  created_at: string
  started_at: string | null
  completed_at: string | null
  updated_at: string
  platform: { name: string; display_name: string } | null
  social_account: { id: string; username: string; status: string } | null
  scraping_campaign: { id: string; name: string } | null
  /** From rpc/campaign_card_figures. */
  leads: number
  contacted: number
  replied: number
}
