// The Create New (DM) Campaign wizard (product.md §2 Modals 3, §5 "DM wizard", §9): the form, its rules
// per step, and the POST {api}/v2/campaigns body it becomes.
// The limits, defaults and error words are @reachflow/domain's, which the api function checks again.
import {
  type CreateDmCampaignBody,
  DM_DEFAULTS,
  DM_LIMITS,
  DM_RULE_TEXTS,
  type DmPlatform,
  type DmSchedule,
  type DmSequences,
  HHMM,
  hasInitialMessage,
  isWindow,
  WEEKDAYS,
} from '@reachflow/domain'
import { z } from 'zod'

export const DM_TEXT = {
  ...DM_RULE_TEXTS,
  account: 'Choose the account to send from',
  followUpMessage: 'Write the follow-up message or turn follow-ups off',
  startsNow: 'Campaign will start immediately',
  draft: 'Campaign will be created in draft mode. Launch it from its card when you are ready.',
} as const

const { followUpDays, dailyLimit, winnerAfterSends } = DM_LIMITS

const wholeNumber = (text: string, min: number, max: number) =>
  z.number(text).int(text).min(min, text).max(max, text)
const message = z.object({ text: z.string().max(DM_LIMITS.messageLength) })

export const campaignFormSchema = z
  .object({
    name: z.string().trim().min(1, DM_TEXT.name).max(DM_LIMITS.nameLength),
    accountId: z.string().min(1, DM_TEXT.account),
    industry: z.string().trim().max(DM_LIMITS.labelLength),
    stage: z.string().trim().max(DM_LIMITS.labelLength),
    scrapingCampaignId: z.string().min(1, DM_TEXT.leadSource),
    messages: z
      .array(message)
      .min(1)
      .refine((list) => hasInitialMessage(list.map((m) => m.text)), DM_TEXT.initialMessage),
    noFirstnameMessage: z.string().max(DM_LIMITS.messageLength),
    followUpEnabled: z.boolean(),
    followUpMessages: z.array(message),
    followUpDays: wholeNumber(DM_TEXT.followUpDays, followUpDays.min, followUpDays.max),
    useWinner: z.boolean(),
    winnerAfterSends: z.number(),
    dailyLimit: wholeNumber(DM_TEXT.dailyLimit, dailyLimit.min, dailyLimit.max),
    timezone: z.string().min(1),
    timeFrom: z.string().regex(HHMM),
    timeTo: z.string().regex(HHMM),
    activeDays: z.array(z.enum(WEEKDAYS)).min(1, DM_TEXT.days),
    randomDaysOff: z.boolean(),
    runImmediately: z.boolean(),
    aiPersonalization: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (!isWindow(form.timeFrom, form.timeTo))
      ctx.addIssue({ code: 'custom', message: DM_TEXT.window, path: ['timeTo'] })
    const { success: validWinnerRule } = wholeNumber(
      DM_TEXT.winnerAfterSends,
      winnerAfterSends.min,
      winnerAfterSends.max,
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
    followUpDays: DM_DEFAULTS.followUpDays,
    useWinner: false,
    winnerAfterSends: DM_DEFAULTS.winnerAfterSends,
    dailyLimit: DM_DEFAULTS.dailyLimit,
    ...DM_DEFAULTS.schedule,
    activeDays: [...DM_DEFAULTS.schedule.activeDays],
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

/** product.md §5: choosing a lead source fills an empty name with the source's name plus ' DM Campaign'. */
export function nameForSource(currentName: string, sourceName: string): string {
  return currentName.trim() === '' ? `${sourceName} DM Campaign` : currentName
}

/** product.md §5: the {username} and {name} placeholders, as the runner fills them for one lead. */
export function personalise(template: string, lead: { username: string; name?: string | null }): string {
  // any case, as the runner fills them
  return template.replace(/\{(name|username)\}/gi, (_, key: string) =>
    key.toLowerCase() === 'name' ? lead.name?.trim() || lead.username : lead.username,
  )
}

export function scheduleOf(form: CampaignForm): DmSchedule {
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
export function campaignRequest(form: CampaignForm, id: string, platform: DmPlatform): CreateDmCampaignBody {
  const parsed = campaignFormSchema.parse(form)
  const texts = (list: { text: string }[]) => list.map((m) => m.text.trim()).filter((m) => m !== '')
  const sequences: DmSequences = {
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
