// The rules of a DM campaign that the wizard (web) checks as the customer types and the api function
// checks again on POST and PUT /v2/campaigns: one definition, so the two can never disagree about a
// limit or word an error differently. @reachflow/schemas builds the one set of zod schemas both sides
// validate with from these (zod lives outside this package; docs/decisions.md).

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const
export type Weekday = (typeof WEEKDAYS)[number]
const MONDAY_TO_FRIDAY: readonly Weekday[] = WEEKDAYS.slice(0, 5)

/** Bounds of the numbers a campaign holds (whole numbers, inclusive). */
export const DM_LIMITS = {
  followUpDays: { min: 1, max: 30 },
  dailyLimit: { min: 1, max: 500 },
  targetCount: { min: 1, max: 100_000 },
  winnerAfterSends: { min: 30, max: 10_000 },
  messageLength: 10_000,
  nameLength: 200,
  /** Industry and stage, the free-text labels of a campaign. */
  labelLength: 100,
  /** Opening messages, and separately follow-ups, in one sequence. */
  sequenceMessages: 10,
} as const

/** What a new campaign starts with: follow-ups after 3 days, 50 a day, 09:00-17:00 Monday to Friday, UTC. */
export const DM_DEFAULTS = {
  followUpDays: 3,
  dailyLimit: 50,
  /** The suggested "use the winner after N sends per variant". */
  winnerAfterSends: 100,
  schedule: {
    timezone: 'UTC',
    timeFrom: '09:00',
    timeTo: '17:00',
    activeDays: MONDAY_TO_FRIDAY,
    randomDaysOff: true,
  },
} as const

/** The errors both sides show for the same broken rule, word for word. */
export const DM_RULE_TEXTS = {
  name: 'Campaign name is required',
  leadSource: 'Choose a lead source for this campaign',
  initialMessage: 'Write at least one initial message',
  followUpDays: 'Follow-up days must be a whole number from 1 to 30',
  dailyLimit: 'Daily message limit must be a whole number from 1 to 500',
  winnerAfterSends: 'Use the winner after 30 to 10,000 sends per variant',
  days: 'Choose at least one active day',
  window: "The schedule's end time must be later than its start time",
} as const

export type DmPlatform = 'twitter' | 'instagram'

export interface DmSequences {
  /** Opening messages, one per variant; at least one has text. */
  messages: string[]
  noFirstnameMessage: string
  followUpEnabled: boolean
  followUpMessages: string[]
  followUpDays: number
}

export interface DmSchedule {
  timezone: string
  timeFrom: string
  timeTo: string
  activeDays: Weekday[]
  randomDaysOff: boolean
}

/**
 * The body of POST /v2/campaigns as the wizard sends it. The api function's test assigns one to its
 * schema's input type, so a field renamed or retyped on either side fails a type check.
 */
export interface CreateDmCampaignBody {
  id: string
  name: string
  account_id: string
  platform: DmPlatform
  scraping_campaign_id: string
  sequences: DmSequences
  schedule: DmSchedule
  run_immediately: boolean
  /** The daily limit again: the database keeps the real target and ignores this one. */
  target_count: number
  daily_message_limit: number
  winner_after_sends: number | null
  message_template: string | null
  industry: string | null
  stage: string | null
  ai_personalization: boolean
}

/** A schedule time, HH:MM from 00:00 to 23:59. */
export const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/

/** True for a time zone the runtime knows (IANA names such as Europe/Berlin, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** The schedule's window is a span of the day: it ends after it starts (HH:MM compare as text). */
export const isWindow = (timeFrom: string, timeTo: string): boolean => timeFrom < timeTo

/** At least one opening message has text. */
export const hasInitialMessage = (messages: readonly string[]): boolean =>
  messages.some((m) => m.trim() !== '')

/**
 * The daily limit: the body's daily_message_limit, else the target count the wizard sends as "daily
 * limit or 100" (docs/api.md) when it is a valid limit, else the default 50.
 */
export function dailyLimitOf(body: { daily_message_limit?: number; target_count?: number }): number {
  if (body.daily_message_limit !== undefined) return body.daily_message_limit
  if (body.target_count !== undefined && body.target_count <= DM_LIMITS.dailyLimit.max)
    return body.target_count
  return DM_DEFAULTS.dailyLimit
}
