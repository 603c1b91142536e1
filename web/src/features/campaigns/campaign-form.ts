// The Create New (DM) Campaign wizard (product.md §2 Modals 3, §5 "DM wizard", §9): the form, its rules
// per step, and the POST {api}/v2/campaigns body it becomes.
import { z } from 'zod'
import type { Schedule, Sequences } from './api/types'

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const

export const DM_TEXT = {
  name: 'Campaign name is required',
  account: 'Choose the account to send from',
  leadSource: 'Choose a lead source for this campaign',
  initialMessage: 'Write at least one initial message',
  followUpDays: 'Follow-up days must be a whole number from 1 to 30',
  followUpMessage: 'Write the follow-up message or turn follow-ups off',
  dailyLimit: 'Daily message limit must be a whole number from 1 to 500',
  winnerAfterSends: 'Use the winner after 30 to 10,000 sends per variant',
  days: 'Choose at least one active day',
  window: "The schedule's end time must be later than its start time",
  startsNow: 'Campaign will start immediately',
  draft: 'Campaign will be created in draft mode. Launch it from its card when you are ready.',
} as const

/** Spec §9 defaults: three blank message slots, follow-ups after 3 days, 50 a day, 09:00-17:00 Mon-Fri UTC. */
export const DEFAULT_FOLLOW_UP_DAYS = 3
export const DEFAULT_DAILY_LIMIT = 50
/** The suggested "use the winner after N sends per variant" (30 to 10,000). */
export const DEFAULT_WINNER_AFTER_SENDS = 100
export const MIN_WINNER_AFTER_SENDS = 30
export const MAX_WINNER_AFTER_SENDS = 10_000

const wholeNumber = (text: string, min: number, max: number) =>
  z.number(text).int(text).min(min, text).max(max, text)

export const campaignFormSchema = z
  .object({
    name: z.string().trim().min(1, DM_TEXT.name).max(200),
    accountId: z.string().min(1, DM_TEXT.account),
    industry: z.string().trim().max(100),
    stage: z.string().trim().max(100),
    scrapingCampaignId: z.string().min(1, DM_TEXT.leadSource),
    messages: z
      .array(z.object({ text: z.string().max(10_000) }))
      .min(1)
      .refine((list) => list.some((m) => m.text.trim() !== ''), DM_TEXT.initialMessage),
    noFirstnameMessage: z.string().max(10_000),
    followUpEnabled: z.boolean(),
    followUpMessages: z.array(z.object({ text: z.string().max(10_000) })),
    followUpDays: wholeNumber(DM_TEXT.followUpDays, 1, 30),
    useWinner: z.boolean(),
    winnerAfterSends: z.number(),
    dailyLimit: wholeNumber(DM_TEXT.dailyLimit, 1, 500),
    timezone: z.string().min(1),
    timeFrom: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
    timeTo: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
    activeDays: z.array(z.enum(WEEKDAYS)).min(1, DM_TEXT.days),
    randomDaysOff: z.boolean(),
    runImmediately: z.boolean(),
    aiPersonalization: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (form.timeFrom >= form.timeTo)
      ctx.addIssue({ code: 'custom', message: DM_TEXT.window, path: ['timeTo'] })
    const { success: validWinnerRule } = wholeNumber(
      DM_TEXT.winnerAfterSends,
      MIN_WINNER_AFTER_SENDS,
      MAX_WINNER_AFTER_SENDS,
    ).safeParse(form.winnerAfterSends)
    if (winnerRuleApplies(form) && !validWinnerRule)
      ctx.addIssue({ code: 'custom', message: DM_TEXT.winnerAfterSends, path: ['winnerAfterSends'] })
    if (form.followUpEnabled && !form.followUpMessages.some((m) => m.text.trim() !== '')) {
      ctx.addIssue({ code: 'custom', message: DM_TEXT.followUpMessage, path: ['followUpMessages'] })
    }
  })

export type CampaignForm = z.infer<typeof campaignFormSchema>

/** The winner rule needs something to compare: it applies with two or more opening messages. */
export function winnerRuleApplies(form: Pick<CampaignForm, 'useWinner' | 'messages'>): boolean {
  return form.useWinner && form.messages.filter((m) => m.text.trim() !== '').length >= 2
}

export function defaultCampaignForm(): CampaignForm {
  return {
    name: '',
    accountId: '',
    industry: '',
    stage: '',
    scrapingCampaignId: '',
    messages: [{ text: '' }, { text: '' }, { text: '' }],
    noFirstnameMessage: '',
    followUpEnabled: false,
    followUpMessages: [{ text: '' }],
    followUpDays: DEFAULT_FOLLOW_UP_DAYS,
    useWinner: false,
    winnerAfterSends: DEFAULT_WINNER_AFTER_SENDS,
    dailyLimit: DEFAULT_DAILY_LIMIT,
    timezone: 'UTC',
    timeFrom: '09:00',
    timeTo: '17:00',
    activeDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    randomDaysOff: true,
    runImmediately: false,
    aiPersonalization: false,
  }
}

export const CAMPAIGN_STEPS = [
  { title: 'Setup' },
  { title: 'Lead Source' },
  { title: 'Messages' },
  { title: 'Schedule' },
  { title: 'Review' },
] as const

/** The fields each step owns; a step may be left when none of them has a problem. */
const STEP_FIELDS: readonly (readonly string[])[] = [
  ['name', 'accountId', 'industry', 'stage'],
  ['scrapingCampaignId'],
  [
    'messages',
    'noFirstnameMessage',
    'followUpEnabled',
    'followUpMessages',
    'followUpDays',
    'useWinner',
    'winnerAfterSends',
    'aiPersonalization',
  ],
  ['dailyLimit', 'timezone', 'timeFrom', 'timeTo', 'activeDays', 'randomDaysOff'],
  ['runImmediately'],
]

/** Problems of one step, by field (first message each); empty when the step is complete. */
export function stepProblems(form: CampaignForm, step: number): Record<string, string> {
  const result = campaignFormSchema.safeParse(form)
  if (result.success) return {}
  const owned = STEP_FIELDS[step] ?? []
  const problems: Record<string, string> = {}
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '')
    if (owned.includes(field) && !problems[field]) problems[field] = issue.message
  }
  return problems
}

/** Spec §5: choosing a lead source fills an empty name with the source's name plus ' DM Campaign'. */
export function nameForSource(currentName: string, sourceName: string): string {
  return currentName.trim() === '' ? `${sourceName} DM Campaign` : currentName
}

/** Spec §5: the {username} and {name} placeholders, as the runner fills them for one lead. */
export function personalise(template: string, lead: { username: string; name?: string | null }): string {
  // any case, as the runner fills them
  return template.replace(/\{(name|username)\}/gi, (_, key: string) =>
    key.toLowerCase() === 'name' ? lead.name?.trim() || lead.username : lead.username,
  )
}

export function scheduleOf(form: CampaignForm): Schedule {
  return {
    timezone: form.timezone,
    timeFrom: form.timeFrom,
    timeTo: form.timeTo,
    activeDays: [...form.activeDays],
    randomDaysOff: form.randomDaysOff,
  }
}

/**
 * The product.md §7 POST /v2/campaigns body (target_count = the daily limit, as product.md §7 says; the
 * database keeps the real target, the people the campaign will message, and ignores it).
 */
export function campaignRequest(form: CampaignForm, id: string, platform: string) {
  const parsed = campaignFormSchema.parse(form)
  const texts = (list: { text: string }[]) => list.map((m) => m.text.trim()).filter((m) => m !== '')
  const sequences: Sequences = {
    messages: texts(parsed.messages),
    noFirstnameMessage: parsed.noFirstnameMessage.trim(),
    followUpEnabled: parsed.followUpEnabled,
    followUpMessages: parsed.followUpEnabled ? texts(parsed.followUpMessages) : [],
    followUpDays: parsed.followUpDays,
  }
  return {
    id,
    name: parsed.name,
    account_id: parsed.accountId,
    platform,
    scraping_campaign_id: parsed.scrapingCampaignId,
    sequences,
    schedule: scheduleOf(parsed),
    run_immediately: parsed.runImmediately,
    target_count: parsed.dailyLimit,
    daily_message_limit: parsed.dailyLimit,
    winner_after_sends: winnerRuleApplies(parsed) ? parsed.winnerAfterSends : null,
    message_template: sequences.messages[0] ?? null,
    industry: parsed.industry || null,
    stage: parsed.stage || null,
    ai_personalization: parsed.aiPersonalization,
  }
}
