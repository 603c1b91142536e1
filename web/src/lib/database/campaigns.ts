// A DM campaign as the cards and the detail view read it: the generated row's columns, its jsonb
// sequences and schedule in the shapes the database's triggers keep (internal.normalized_sequences,
// internal.normalized_schedule), the joined platform, account and lead source, and the card figures.

import type { Tables } from '@reachflow/db'
import type { CampaignFigures } from '@reachflow/domain'
import { z } from 'zod'

/** product.md §3 "Sequences". */
export const sequencesSchema = z.object({
  messages: z.array(z.string()),
  noFirstnameMessage: z.string().optional(),
  followUpEnabled: z.boolean(),
  followUpMessages: z.array(z.string()),
  followUpDays: z.number(),
})
export type Sequences = z.infer<typeof sequencesSchema>

/** product.md §3 "Schedule" (plus randomDaysOff, default true). */
export const scheduleSchema = z.object({
  timezone: z.string(),
  timeFrom: z.string(),
  timeTo: z.string(),
  activeDays: z.array(z.string()),
  randomDaysOff: z.boolean().optional(),
})
export type Schedule = z.infer<typeof scheduleSchema>

type CampaignColumns = Pick<
  Tables<'campaigns'>,
  | 'id'
  | 'name'
  | 'status'
  | 'industry'
  | 'stage'
  | 'account_id'
  | 'scraping_campaign_id'
  | 'messages_sent'
  | 'messages_failed'
  | 'total_attempts'
  | 'response_count'
  | 'daily_message_limit'
  | 'target_count'
  | 'message_template'
  | 'run_immediately'
  | 'error_message'
  | 'ai_personalization'
  | 'winner_after_sends'
  | 'winner_chosen_at'
  | 'created_at'
  | 'started_at'
  | 'completed_at'
  | 'updated_at'
>

/** A DM campaign as the cards and the detail view read it (product.md §3 "DM campaign"). */
export type Campaign = CampaignColumns & {
  sequences: Sequences
  schedule: Schedule
  platform: Pick<Tables<'platforms'>, 'name' | 'display_name'> | null
  social_account: Pick<Tables<'social_accounts'>, 'id' | 'username' | 'status'> | null
  scraping_campaign: Pick<Tables<'scraping_campaigns'>, 'id' | 'name'> | null
  /** From rpc/campaign_figures: the same figures on the card, in the details and on the dashboard. */
  figures: CampaignFigures
}

const text = z.string()
const nullableText = z.string().nullable()
const whole = z.number()
const rate = z.number().nullable()

/** One row of rpc/campaign_figures without its campaign id. */
export const campaignFiguresSchema: z.ZodType<CampaignFigures> = z.object({
  target: whole,
  not_deliverable: whole,
  eligible: whole,
  contacted: whole,
  replied: whole,
  delivered: whole,
  not_delivered: whole,
  unconfirmed: whole,
  delivery_rate: rate,
  progress: rate,
  reply_rate: rate,
})

/** The campaign rows of rpc/dashboard_snapshot: the Campaigns tab's columns with the card figures. */
export const campaignSchema: z.ZodType<Campaign> = z.object({
  id: text,
  name: text,
  status: text,
  industry: nullableText,
  stage: nullableText,
  account_id: nullableText,
  scraping_campaign_id: nullableText,
  messages_sent: whole,
  messages_failed: whole,
  total_attempts: whole,
  response_count: whole,
  daily_message_limit: whole,
  target_count: whole,
  message_template: nullableText,
  sequences: sequencesSchema,
  schedule: scheduleSchema,
  run_immediately: z.boolean(),
  error_message: nullableText,
  ai_personalization: z.boolean(),
  winner_after_sends: whole.nullable(),
  winner_chosen_at: nullableText,
  created_at: text,
  started_at: nullableText,
  completed_at: nullableText,
  updated_at: text,
  platform: z.object({ name: text, display_name: text }).nullable(),
  social_account: z.object({ id: text, username: text, status: text }).nullable(),
  scraping_campaign: z.object({ id: text, name: text }).nullable(),
  figures: campaignFiguresSchema,
})
