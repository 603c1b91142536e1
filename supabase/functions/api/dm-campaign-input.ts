// The body of POST and PUT /v2/campaigns (product.md §7), with the rules of §5 and §9: three message
// slots of which at least one initial message is written, follow-ups after 1-30 days (default 3),
// a schedule in an IANA time zone with an HH:MM window on lowercase weekdays (default 09:00-17:00
// Monday to Friday, UTC), a daily limit of 1-500 (default 50).
import { z } from '../_shared/validation.ts'

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const

export const DM_MESSAGES = {
  initialMessage: 'Write at least one initial message',
  followUpDays: 'Follow-up days must be a whole number from 1 to 30',
  dailyLimit: 'Daily message limit must be a whole number from 1 to 500',
  targetCount: 'Target count must be a whole number from 1 to 100,000',
  time: 'Schedule times must be HH:MM (00:00-23:59)',
  window: "The schedule's end time must be later than its start time",
  days: 'Choose at least one active day',
  name: 'Campaign name is required',
  account: 'Choose one of your social accounts for this campaign',
  leadSource: 'Choose a lead source for this campaign',
  winnerAfterSends: 'Use the winner after 30 to 10,000 sends per variant',
} as const

/** True for a time zone the runtime knows (IANA names such as Europe/Berlin, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

const message = z.string().max(10_000, 'A message may be at most 10,000 characters')
const wholeNumber = (text: string, min: number, max: number) =>
  z.number(text).int(text).min(min, text).max(max, text)
const hhmm = z.string(DM_MESSAGES.time).regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, DM_MESSAGES.time)

export const sequencesSchema = z.object({
  messages: z
    .array(message, DM_MESSAGES.initialMessage)
    .max(10, 'A sequence holds at most 10 messages')
    .refine((list) => list.some((m) => m.trim() !== ''), DM_MESSAGES.initialMessage),
  noFirstnameMessage: message.default(''),
  followUpEnabled: z.boolean().default(false),
  followUpMessages: z.array(message).max(10, 'A sequence holds at most 10 follow-ups').default([]),
  followUpDays: wholeNumber(DM_MESSAGES.followUpDays, 1, 30).default(3),
})

export const scheduleSchema = z
  .object({
    timezone: z
      .string()
      .trim()
      .default('UTC')
      .refine(isTimeZone, { error: (issue) => `Unknown time zone "${String(issue.input)}"` }),
    timeFrom: hhmm.default('09:00'),
    timeTo: hhmm.default('17:00'),
    activeDays: z
      .array(
        z.enum(WEEKDAYS, {
          error: (issue) => `Active days are lowercase weekday names, got "${String(issue.input)}"`,
        }),
      )
      .min(1, DM_MESSAGES.days)
      .default(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'])
      .transform((days) => [...new Set(days)]),
    randomDaysOff: z.boolean().default(true),
  })
  .refine((s) => s.timeFrom < s.timeTo, { message: DM_MESSAGES.window, path: ['timeTo'] })

const fields = {
  name: z
    .string(DM_MESSAGES.name)
    .trim()
    .min(1, DM_MESSAGES.name)
    .max(200, 'Campaign names may be at most 200 characters'),
  account_id: z.uuid(DM_MESSAGES.account),
  platform: z.enum(['twitter', 'instagram'], 'Platform must be twitter or instagram').optional(),
  scraping_campaign_id: z.uuid(DM_MESSAGES.leadSource).nullish(),
  lead_list_id: z.uuid(DM_MESSAGES.leadSource).nullish(),
  sequences: sequencesSchema,
  schedule: scheduleSchema.default({
    timezone: 'UTC',
    timeFrom: '09:00',
    timeTo: '17:00',
    activeDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    randomDaysOff: true,
  }),
  target_count: wholeNumber(DM_MESSAGES.targetCount, 1, 100_000).optional(),
  daily_message_limit: wholeNumber(DM_MESSAGES.dailyLimit, 1, 500).optional(),
  /** Optional: once every opening variant has this many sends, send only a clear winner; null = off. */
  winner_after_sends: wholeNumber(DM_MESSAGES.winnerAfterSends, 30, 10_000).nullish(),
  message_template: z.string().max(10_000).nullish(),
  industry: z.string().trim().max(100).nullish(),
  stage: z.string().trim().max(100).nullish(),
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

/**
 * The daily limit: the body's daily_message_limit, else the target count the wizard sends as "daily
 * limit or 100" (product.md §7) when it is a valid limit, else the default 50.
 */
export function dailyLimitOf(body: { daily_message_limit?: number; target_count?: number }): number {
  if (body.daily_message_limit !== undefined) return body.daily_message_limit
  if (body.target_count !== undefined && body.target_count <= 500) return body.target_count
  return 50
}
