// The body of POST and PUT /v2/campaigns (docs/api.md): three message slots of which at least one
// initial message is written, follow-ups after 1-30 days (default 3), a schedule in an IANA time zone
// with an HH:MM window on lowercase weekdays (default 09:00-17:00 Monday to Friday, UTC), a daily
// limit of 1-500 (default 50). Every campaign field is @reachflow/schemas', which the web wizard's
// form is built from too; this file adds what only a request has (ids, platform, what to update).

import { DM_DEFAULTS, DM_LIMITS } from '@reachflow/domain'
import {
  campaignLabel,
  campaignName,
  DM_MESSAGES,
  dailyLimitSchema,
  scheduleSchema,
  sequencesSchema,
  targetCountSchema,
  winnerAfterSendsSchema,
} from '@reachflow/schemas'
import { z } from '../_shared/validation.ts'

const fields = {
  name: campaignName,
  account_id: z.uuid(DM_MESSAGES.account),
  platform: z.enum(['twitter', 'instagram'], 'Platform must be twitter or instagram').optional(),
  scraping_campaign_id: z.uuid(DM_MESSAGES.leadSource).nullish(),
  lead_list_id: z.uuid(DM_MESSAGES.leadSource).nullish(),
  sequences: sequencesSchema,
  schedule: scheduleSchema.default({
    ...DM_DEFAULTS.schedule,
    activeDays: [...DM_DEFAULTS.schedule.activeDays],
  }),
  target_count: targetCountSchema.optional(),
  daily_message_limit: dailyLimitSchema.optional(),
  /** Optional: once every opening variant has this many sends, send only a clear winner; null = off. */
  winner_after_sends: winnerAfterSendsSchema.nullish(),
  message_template: z.string().max(DM_LIMITS.messageLength).nullish(),
  industry: campaignLabel.nullish(),
  stage: campaignLabel.nullish(),
  ai_personalization: z.boolean('ai_personalization must be true or false').optional(),
}

// The wizard may choose the campaign's id itself, so the random days off it previews are the ones
// the campaign gets (they are drawn per campaign id and date).
export const createCampaignSchema = z
  .object({
    ...fields,
    id: z.uuid('The campaign id must be a UUID').optional(),
    run_immediately: z.boolean().default(false),
  })
  .refine((b) => Boolean(b.scraping_campaign_id || b.lead_list_id), {
    message: DM_MESSAGES.leadSource,
    path: ['scraping_campaign_id'],
  })

// No defaults on update: a field left out keeps its stored value.
export const updateCampaignSchema = z
  .object({ ...fields, schedule: scheduleSchema })
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to update')
