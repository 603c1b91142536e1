// The automation form's rules: the same limits the instagram_automations table checks, said so a
// customer can fix them before the database refuses, and the row the form's values become.
import { z } from 'zod'

export const TRIGGERS = ['comment_keyword', 'dm_keyword', 'story_mention', 'story_reply'] as const
export type AutomationTrigger = (typeof TRIGGERS)[number]

export const TRIGGER_LABEL: Record<AutomationTrigger, string> = {
  comment_keyword: 'Comment keyword',
  dm_keyword: 'DM keyword',
  story_mention: 'Story mention',
  story_reply: 'Story reply',
}

export const TRIGGER_HINT: Record<AutomationTrigger, string> = {
  comment_keyword: 'Someone comments a keyword on your post or reel: they get a private reply in their DMs.',
  dm_keyword: 'Someone sends your account a DM with a keyword: the automation answers it.',
  story_mention: 'Someone mentions your account in their story: the automation thanks them by DM.',
  story_reply: 'Someone replies to your story: the automation answers in the conversation.',
}

/** Keyword triggers need a keyword; story triggers answer every mention or reply without one. */
export const needsKeywords = (trigger: AutomationTrigger) =>
  trigger === 'comment_keyword' || trigger === 'dm_keyword'

export const LIMITS = {
  name: 100,
  keywords: 20,
  keyword: 60,
  /** Instagram's Send API takes at most 1,000 bytes of UTF-8 text (the table checks octet_length). */
  replyBytes: 1000,
  /** Instagram's limit for a comment. */
  publicReply: 2200,
  /** The follow-up must still fall inside the 24-hour window: at most 23 h 59 min after the DM. */
  followupMinutes: 23 * 60 + 59,
} as const

/** Only a DM or a story mention or reply opens Instagram's 24-hour window; a comment does not. */
export const canFollowUp = (trigger: AutomationTrigger) => trigger !== 'comment_keyword'

export const MESSAGES = {
  name: 'Give the automation a name.',
  nameLong: `A name can be at most ${LIMITS.name} characters.`,
  account: 'Choose the Instagram account it runs on.',
  post: 'Choose the post or reel to watch, or "Any post or reel".',
  keywordsNeeded: 'Add at least one keyword: the automation answers only comments or DMs that contain one.',
  keywordsMany: `At most ${LIMITS.keywords} keywords.`,
  reply: 'Write the message the automation sends.',
  replyLong: `The message is too long: Instagram takes at most ${LIMITS.replyBytes.toLocaleString('en-US')} bytes (an emoji counts as up to 4).`,
  publicReplyLong: `A public reply can be at most ${LIMITS.publicReply.toLocaleString('en-US')} characters.`,
  followup: 'Write the follow-up message, or turn the follow-up off.',
  followupLong: `The follow-up is too long: Instagram takes at most ${LIMITS.replyBytes.toLocaleString('en-US')} bytes (an emoji counts as up to 4).`,
  followupHours: 'Hours: a whole number from 0 to 23.',
  followupMinutes: 'Minutes: a whole number from 0 to 59.',
  followupDelay: 'Wait at least 1 minute (and at most 23 hours 59 minutes).',
} as const

export const FOLLOWUP_RULE =
  "Instagram lets you message someone only within 24 hours of their last message: the follow-up goes only if they haven't written since your reply, and never after those 24 hours."
export const FOLLOWUP_NOT_FOR_COMMENTS =
  "Follow-ups are for DMs and stories: a comment doesn't open Instagram's 24-hour messaging window, so the private reply is the only message a comment allows."

const wholeNumber = (text: string, max: number) => /^[0-9]{1,2}$/.test(text.trim()) && Number(text) <= max

/** The follow-up's delay in minutes, or null while the hours or minutes are not whole numbers in range. */
export function followupDelayMinutes(hours: string, minutes: string): number | null {
  const h = hours.trim() === '' ? '0' : hours
  const m = minutes.trim() === '' ? '0' : minutes
  if (!wholeNumber(h, 23) || !wholeNumber(m, 59)) return null
  return Number(h) * 60 + Number(m)
}

/** "1 h 30 min", "45 min", "23 h" */
export function delayLabel(totalMinutes: number): string {
  const h = Math.floor(totalMinutes / 60)
  const m = totalMinutes % 60
  return [h > 0 ? `${h} h` : '', m > 0 || h === 0 ? `${m} min` : ''].filter(Boolean).join(' ')
}

export const byteLength = (text: string) => new TextEncoder().encode(text).length

export const automationFormSchema = z
  .object({
    name: z.string().trim().min(1, MESSAGES.name).max(LIMITS.name, MESSAGES.nameLong),
    accountId: z.string().min(1, MESSAGES.account),
    trigger: z.enum(TRIGGERS),
    postScope: z.enum(['any', 'one']),
    mediaId: z.string(),
    keywords: z.array(z.string()).max(LIMITS.keywords, MESSAGES.keywordsMany),
    replyText: z
      .string()
      .refine((text) => text.trim().length > 0, MESSAGES.reply)
      .refine((text) => byteLength(text.trim()) <= LIMITS.replyBytes, MESSAGES.replyLong),
    publicReplyText: z.string(),
    followupOn: z.boolean(),
    followupText: z.string(),
    followupHours: z.string(),
    followupMinutes: z.string(),
    enabled: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (needsKeywords(values.trigger) && values.keywords.length === 0)
      ctx.addIssue({ code: 'custom', path: ['keywords'], message: MESSAGES.keywordsNeeded })
    if (
      values.trigger === 'comment_keyword' &&
      values.postScope === 'one' &&
      !/^[0-9]{1,30}$/.test(values.mediaId)
    )
      ctx.addIssue({ code: 'custom', path: ['mediaId'], message: MESSAGES.post })
    // only a comment gets a public reply: for the other triggers the text is dropped, not checked
    if (values.trigger === 'comment_keyword' && values.publicReplyText.trim().length > LIMITS.publicReply)
      ctx.addIssue({ code: 'custom', path: ['publicReplyText'], message: MESSAGES.publicReplyLong })
    // a comment trigger has no follow-up: what was typed for another trigger is dropped, not checked
    if (!values.followupOn || !canFollowUp(values.trigger)) return
    const text = values.followupText.trim()
    if (!text) ctx.addIssue({ code: 'custom', path: ['followupText'], message: MESSAGES.followup })
    else if (byteLength(text) > LIMITS.replyBytes)
      ctx.addIssue({ code: 'custom', path: ['followupText'], message: MESSAGES.followupLong })
    const hours = values.followupHours.trim() === '' ? '0' : values.followupHours
    const minutes = values.followupMinutes.trim() === '' ? '0' : values.followupMinutes
    if (!wholeNumber(hours, 23))
      ctx.addIssue({ code: 'custom', path: ['followupHours'], message: MESSAGES.followupHours })
    if (!wholeNumber(minutes, 59))
      ctx.addIssue({ code: 'custom', path: ['followupMinutes'], message: MESSAGES.followupMinutes })
    if (followupDelayMinutes(hours, minutes) === 0)
      ctx.addIssue({ code: 'custom', path: ['followupMinutes'], message: MESSAGES.followupDelay })
  })

export type AutomationFormValues = z.infer<typeof automationFormSchema>

export const emptyAutomation = (accountId = ''): AutomationFormValues => ({
  name: '',
  accountId,
  trigger: 'comment_keyword',
  postScope: 'any',
  mediaId: '',
  keywords: [],
  replyText: '',
  publicReplyText: '',
  followupOn: false,
  followupText: '',
  followupHours: '1',
  followupMinutes: '0',
  enabled: true,
})

/** Why a typed keyword cannot be added (blank, too long, already there, too many); null when it can. */
export function keywordProblem(keyword: string, current: string[]): string | null {
  const word = normaliseKeyword(keyword)
  if (!word) return 'Type a word or a short phrase.'
  if (word.length > LIMITS.keyword) return `A keyword can be at most ${LIMITS.keyword} characters.`
  if (current.some((k) => k.toLowerCase() === word.toLowerCase())) return `"${word}" is already a keyword.`
  if (current.length >= LIMITS.keywords) return MESSAGES.keywordsMany
  return null
}

/** Inner spaces kept (a phrase matches as a whole), the rest trimmed: matching ignores case anyway. */
export const normaliseKeyword = (keyword: string) => keyword.trim().replace(/\s+/g, ' ')

/**
 * Keywords typed or pasted in one go ("guide, price"): each one added once, in order. Answers the
 * new list and the first problem met, so the chip input can say why something was not added.
 */
export function addKeywords(
  current: string[],
  typed: string,
): { keywords: string[]; problem: string | null } {
  const keywords = [...current]
  let problem: string | null = null
  for (const part of typed.split(/[,\n]/)) {
    if (!part.trim()) continue
    const found = keywordProblem(part, keywords)
    if (found) problem ??= found
    else keywords.push(normaliseKeyword(part))
  }
  return { keywords, problem }
}

/** The instagram_automations row the form's values become (insert or update). */
export function automationRow(values: AutomationFormValues) {
  const comment = values.trigger === 'comment_keyword'
  const publicReply = values.publicReplyText.trim()
  const followup = values.followupOn && canFollowUp(values.trigger)
  return {
    account_id: values.accountId,
    name: values.name.trim(),
    trigger: values.trigger,
    media_id: comment && values.postScope === 'one' ? values.mediaId : null,
    keywords: values.keywords,
    reply_text: values.replyText.trim(),
    public_reply_text: comment && publicReply ? publicReply : null,
    followup_text: followup ? values.followupText.trim() : null,
    followup_delay_minutes: followup
      ? followupDelayMinutes(values.followupHours, values.followupMinutes)
      : null,
    enabled: values.enabled,
  }
}

/** A stored automation as the form edits it. */
export function formValuesOf(row: {
  account_id: string
  name: string
  trigger: string
  media_id: string | null
  keywords: string[]
  reply_text: string
  public_reply_text: string | null
  followup_text: string | null
  followup_delay_minutes: number | null
  enabled: boolean
}): AutomationFormValues {
  return {
    name: row.name,
    accountId: row.account_id,
    trigger: (TRIGGERS as readonly string[]).includes(row.trigger)
      ? (row.trigger as AutomationTrigger)
      : 'comment_keyword',
    postScope: row.media_id ? 'one' : 'any',
    mediaId: row.media_id ?? '',
    keywords: row.keywords,
    replyText: row.reply_text,
    publicReplyText: row.public_reply_text ?? '',
    followupOn: row.followup_text !== null,
    followupText: row.followup_text ?? '',
    followupHours: String(Math.floor((row.followup_delay_minutes ?? 60) / 60)),
    followupMinutes: String((row.followup_delay_minutes ?? 60) % 60),
    enabled: row.enabled,
  }
}
