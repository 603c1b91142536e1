// The body of POST and PUT /v2/campaigns (docs/api.md): three message slots of which at least one
// initial message is written, follow-ups after 1-30 days (default 3), a schedule in an IANA time zone
// with an HH:MM window on lowercase weekdays (default 09:00-17:00 Monday to Friday, UTC), a daily
// limit of 1-500 (default 50). The rules and their words are @reachflow/domain's, which the web
// wizard checks too; this file only states them as the request's schema.
import {
  DM_DEFAULTS,
  DM_LIMITS,
  DM_RULE_TEXTS,
  HHMM,
  hasInitialMessage,
  isTimeZone,
  isWindow,
  WEEKDAYS,
} from '@reachflow/domain'
import { z } from '../_shared/validation.ts'

export const DM_MESSAGES = {
  ...DM_RULE_TEXTS,
  targetCount: 'Target count must be a whole number from 1 to 100,000',
  time: 'Schedule times must be HH:MM (00:00-23:59)',
  account: 'Choose one of your social accounts for this campaign',
} as const

const message = z.string().max(DM_LIMITS.messageLength, 'A message may be at most 10,000 characters')
const wholeNumber = (text: string, min: number, max: number) =>
  z.number(text).int(text).min(min, text).max(max, text)
const hhmm = z.string(DM_MESSAGES.time).regex(HHMM, DM_MESSAGES.time)
const { followUpDays, dailyLimit, targetCount, winnerAfterSends } = DM_LIMITS

export const sequencesSchema = z.object({
  messages: z
    .array(message, DM_MESSAGES.initialMessage)
    .max(DM_LIMITS.sequenceMessages, 'A sequence holds at most 10 messages')
    .refine(hasInitialMessage, DM_MESSAGES.initialMessage),
  noFirstnameMessage: message.default(''),
  followUpEnabled: z.boolean().default(false),
  followUpMessages: z
    .array(message)
    .max(DM_LIMITS.sequenceMessages, 'A sequence holds at most 10 follow-ups')
    .default([]),
  followUpDays: wholeNumber(DM_MESSAGES.followUpDays, followUpDays.min, followUpDays.max).default(
    DM_DEFAULTS.followUpDays,
  ),
})

export const scheduleSchema = z
  .object({
    timezone: z
      .string()
      .trim()
      .default(DM_DEFAULTS.schedule.timezone)
      .refine(isTimeZone, { error: (issue) => `Unknown time zone "${String(issue.input)}"` }),
    timeFrom: hhmm.default(DM_DEFAULTS.schedule.timeFrom),
    timeTo: hhmm.default(DM_DEFAULTS.schedule.timeTo),
    activeDays: z
      .array(
        z.enum(WEEKDAYS, {
          error: (issue) => `Active days are lowercase weekday names, got "${String(issue.input)}"`,
        }),
      )
      .min(1, DM_MESSAGES.days)
      .default([...DM_DEFAULTS.schedule.activeDays])
      .transform((days) => [...new Set(days)]),
    randomDaysOff: z.boolean().default(DM_DEFAULTS.schedule.randomDaysOff),
  })
  .refine((s) => isWindow(s.timeFrom, s.timeTo), { message: DM_MESSAGES.window, path: ['timeTo'] })

const fields = {
  name: z
    .string(DM_MESSAGES.name)
    .trim()
    .min(1, DM_MESSAGES.name)
    .max(DM_LIMITS.nameLength, 'Campaign names may be at most 200 characters'),
  account_id: z.uuid(DM_MESSAGES.account),
  platform: z.enum(['twitter', 'instagram'], 'Platform must be twitter or instagram').optional(),
  scraping_campaign_id: z.uuid(DM_MESSAGES.leadSource).nullish(),
  lead_list_id: z.uuid(DM_MESSAGES.leadSource).nullish(),
  sequences: sequencesSchema,
  schedule: scheduleSchema.default({
    ...DM_DEFAULTS.schedule,
    activeDays: [...DM_DEFAULTS.schedule.activeDays],
  }),
  target_count: wholeNumber(DM_MESSAGES.targetCount, targetCount.min, targetCount.max).optional(),
  daily_message_limit: wholeNumber(DM_MESSAGES.dailyLimit, dailyLimit.min, dailyLimit.max).optional(),
  /** Optional: once every opening variant has this many sends, send only a clear winner; null = off. */
  winner_after_sends: wholeNumber(
    DM_MESSAGES.winnerAfterSends,
    winnerAfterSends.min,
    winnerAfterSends.max,
  ).nullish(),
  message_template: z.string().max(DM_LIMITS.messageLength).nullish(),
  industry: z.string().trim().max(DM_LIMITS.labelLength).nullish(),
  stage: z.string().trim().max(DM_LIMITS.labelLength).nullish(),
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
