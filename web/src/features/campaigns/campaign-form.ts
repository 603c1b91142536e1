// The Create New (DM) Campaign wizard (product.md §2 Modals 3, §5 "DM wizard", §9): the form, its rules
// per step, and the POST {api}/v2/campaigns body it becomes.
// Its fields are @reachflow/schemas' campaign fields, which the api function builds its request from:
// the form only extends them with its own shape ({text} message slots, selects, toggles).
import {
  type CreateDmCampaignBody,
  DM_DEFAULTS,
  DM_RULE_TEXTS,
  type DmPlatform,
  type DmSchedule,
  type DmSequences,
} from '@reachflow/domain'
import {
  campaignLabel,
  campaignName,
  dailyLimitSchema,
  followUpMessages,
  messageText,
  openingMessages,
  SCHEDULE_WINDOW,
  scheduleFields,
  sequenceFields,
  winnerAfterSendsSchema,
} from '@reachflow/schemas'
import { z } from 'zod'

export const DM_TEXT = {
  ...DM_RULE_TEXTS,
  account: 'Choose the account to send from',
  followUpMessage: 'Write the follow-up message or turn follow-ups off',
  startsNow: 'Campaign will start immediately',
  draft: 'Campaign will be created in draft mode. Launch it from its card when you are ready.',
} as const

const slot = z.object({ text: messageText })

export const campaignFormSchema = z
  .object({
    ...sequenceFields,
    ...scheduleFields,
    name: campaignName,
    accountId: z.string().min(1, DM_TEXT.account),
    industry: campaignLabel,
    stage: campaignLabel,
    scrapingCampaignId: z.string().min(1, DM_TEXT.leadSource),
    messages: openingMessages(slot, (m) => m.text),
    followUpMessages: followUpMessages(slot),
    useWinner: z.boolean(),
    winnerAfterSends: z.number(),
    dailyLimit: dailyLimitSchema,
    runImmediately: z.boolean(),
    aiPersonalization: z.boolean(),
  })
  .superRefine((form, ctx) => {
    if (!SCHEDULE_WINDOW.holds(form)) ctx.addIssue({ code: 'custom', ...SCHEDULE_WINDOW.issue() })
    const { success: validWinnerRule } = winnerAfterSendsSchema.safeParse(form.winnerAfterSends)
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
