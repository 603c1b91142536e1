// A DM campaign's fields as zod schemas, built once from @reachflow/domain's rules: the api function
// composes its POST and PUT /v2/campaigns body from them and the wizard (web) its form, so a limit,
// a default or an error's words cannot differ between the two. Each side adds only what its own
// shape needs (the request's ids and platform, the form's {text} slots and toggles).
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
import { z } from 'zod'

export const DM_MESSAGES = {
  ...DM_RULE_TEXTS,
  targetCount: 'Target count must be a whole number from 1 to 100,000',
  time: 'Schedule times must be HH:MM (00:00-23:59)',
  account: 'Choose one of your social accounts for this campaign',
} as const

/** A whole number from `min` to `max`; every way of missing it gets the same `text`. */
export const wholeNumber = (text: string, min: number, max: number) =>
  z.number(text).int(text).min(min, text).max(max, text)

const { followUpDays, dailyLimit, targetCount, winnerAfterSends } = DM_LIMITS

export const campaignName = z
  .string(DM_MESSAGES.name)
  .trim()
  .min(1, DM_MESSAGES.name)
  .max(DM_LIMITS.nameLength, 'Campaign names may be at most 200 characters')

/** Industry and stage. */
export const campaignLabel = z.string().trim().max(DM_LIMITS.labelLength)

export const messageText = z
  .string()
  .max(DM_LIMITS.messageLength, 'A message may be at most 10,000 characters')

/** The opening messages, one per variant, at least one written; `textOf` reads a slot's text. */
export const openingMessages = <Slot extends z.ZodType>(
  slot: Slot,
  textOf: (slot: z.output<Slot>) => string,
) =>
  z
    .array(slot, DM_MESSAGES.initialMessage)
    .max(DM_LIMITS.sequenceMessages, 'A sequence holds at most 10 messages')
    .refine((list) => hasInitialMessage(list.map(textOf)), DM_MESSAGES.initialMessage)

export const followUpMessages = <Slot extends z.ZodType>(slot: Slot) =>
  z.array(slot).max(DM_LIMITS.sequenceMessages, 'A sequence holds at most 10 follow-ups')

export const dailyLimitSchema = wholeNumber(DM_MESSAGES.dailyLimit, dailyLimit.min, dailyLimit.max)
export const targetCountSchema = wholeNumber(DM_MESSAGES.targetCount, targetCount.min, targetCount.max)
export const winnerAfterSendsSchema = wholeNumber(
  DM_MESSAGES.winnerAfterSends,
  winnerAfterSends.min,
  winnerAfterSends.max,
)

const scheduleTime = z.string(DM_MESSAGES.time).regex(HHMM, DM_MESSAGES.time)

/**
 * A sequence's fields with the defaults a new campaign starts with, the slot lists as plain texts.
 * The wizard's form always holds every value, so the defaults only ever fill in a request body.
 */
export const sequenceFields = {
  messages: openingMessages(messageText, (text) => text),
  noFirstnameMessage: messageText.default(''),
  followUpEnabled: z.boolean().default(false),
  followUpMessages: followUpMessages(messageText).default([]),
  followUpDays: wholeNumber(DM_MESSAGES.followUpDays, followUpDays.min, followUpDays.max).default(
    DM_DEFAULTS.followUpDays,
  ),
}

/** A schedule's fields with their defaults; the window rule is SCHEDULE_WINDOW, over the whole. */
export const scheduleFields = {
  timezone: z
    .string()
    .trim()
    .refine(isTimeZone, { error: (issue) => `Unknown time zone "${String(issue.input)}"` })
    .default(DM_DEFAULTS.schedule.timezone),
  timeFrom: scheduleTime.default(DM_DEFAULTS.schedule.timeFrom),
  timeTo: scheduleTime.default(DM_DEFAULTS.schedule.timeTo),
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
}

/** The schedule's window is a span of the day; its error sits on the end time. */
export const SCHEDULE_WINDOW = {
  holds: (schedule: { timeFrom: string; timeTo: string }) => isWindow(schedule.timeFrom, schedule.timeTo),
  // A new object each time: zod rewrites the parameters it is given (message becomes error).
  issue: () => ({ message: DM_MESSAGES.window, path: ['timeTo'] }),
}

export const sequencesSchema = z.object(sequenceFields)

export const scheduleSchema = z.object(scheduleFields).refine(SCHEDULE_WINDOW.holds, SCHEDULE_WINDOW.issue())
