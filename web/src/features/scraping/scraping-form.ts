// The Create Scraping Campaign wizard (product.md §2 Modals 1, §5 "Scraping wizard", §9): step 1 needs
// name and account, step 2 a source value, step 3 is always allowed. Target count 1-10,000 (default
// 100; invalid input falls back to 100). Hashtags without #, usernames without @. Min followers 0 or
// more; blank max followers means no limit.
import { z } from 'zod'
import type { SourceType } from './api/types'

export const SCRAPING_STEPS = [
  { title: 'Campaign Setup' },
  { title: 'Lead Source' },
  { title: 'Lead Filters' },
  { title: 'Review' },
] as const

export const SCRAPING_TEXT = {
  name: 'Campaign name is required',
  account: 'Choose the account to scrape with',
  sourceValue: 'Enter the source value (a username, hashtag or keyword)',
  minFollowers: 'Min followers must be a whole number of 0 or more',
  maxFollowers: 'Max followers must be empty (no limit) or at least min followers',
  aiMinScore: 'The minimum AI score must be a whole number from 0 to 100',
  aiIdealCustomer: 'Describe your ideal customer in at most 1,000 characters',
  review:
    'The campaign is created in pending status. Start it manually from the Lead Scraping list when you are ready.',
} as const

export const DEFAULT_TARGET_COUNT = 100
export const MAX_TARGET_COUNT = 10_000

export const SOURCE_METHODS: {
  value: SourceType
  label: string
  valueLabel: string
  placeholder: string
  hint: string
}[] = [
  {
    value: 'followers',
    label: 'Followers',
    valueLabel: 'Username',
    placeholder: 'competitor',
    hint: 'People who follow this account (without @).',
  },
  {
    value: 'following',
    label: 'Following',
    valueLabel: 'Username',
    placeholder: 'industry_leader',
    hint: 'Accounts this person follows (without @).',
  },
  {
    value: 'hashtag',
    label: 'Hashtag posts',
    valueLabel: 'Hashtag',
    placeholder: 'buildinpublic',
    hint: 'Authors of recent posts with this hashtag (without #).',
  },
  {
    value: 'keyword',
    label: 'Keyword search',
    valueLabel: 'Keyword',
    placeholder: 'saas founder',
    hint: 'People whose profiles match these words.',
  },
]

export interface ScrapingForm {
  name: string
  accountId: string
  sourceType: SourceType
  sourceValue: string
  targetCount: string
  minFollowers: string
  maxFollowers: string
  verifiedOnly: boolean
  hasBio: boolean
  excludeBusiness: boolean
  /** AI lead filtering: on when a description is written. */
  aiIdealCustomer: string
  aiMinScore: string
}

export function defaultScrapingForm(): ScrapingForm {
  return {
    name: '',
    accountId: '',
    sourceType: 'followers',
    sourceValue: '',
    targetCount: String(DEFAULT_TARGET_COUNT),
    minFollowers: '0',
    maxFollowers: '',
    verifiedOnly: false,
    hasBio: false,
    excludeBusiness: false,
    aiIdealCustomer: '',
    aiMinScore: '60',
  }
}

/** product.md §9: a target count of 1-10,000; anything else falls back to 100. */
export function targetCountOf(input: string): number {
  const value = Number(input)
  return Number.isInteger(value) && value >= 1 && value <= MAX_TARGET_COUNT ? value : DEFAULT_TARGET_COUNT
}

/** Hashtags are stored without #, usernames without @ (product.md §5). */
export function cleanSourceValue(type: SourceType, value: string): string {
  const trimmed = value.trim()
  if (type === 'hashtag') return trimmed.replace(/^#+/, '')
  if (type === 'followers' || type === 'following') return trimmed.replace(/^@+/, '')
  return trimmed
}

const filtersSchema = z
  .object({
    minFollowers: z.string().trim().regex(/^\d+$/, SCRAPING_TEXT.minFollowers),
    maxFollowers: z.string().trim().regex(/^\d*$/, SCRAPING_TEXT.maxFollowers),
  })
  .refine((f) => f.maxFollowers === '' || Number(f.maxFollowers) >= Number(f.minFollowers), {
    message: SCRAPING_TEXT.maxFollowers,
    path: ['maxFollowers'],
  })

/** The problems of a step by field; empty when the wizard may go on. */
export function scrapingStepProblems(form: ScrapingForm, step: number): Record<string, string> {
  const problems: Record<string, string> = {}
  if (step >= 0) {
    if (form.name.trim() === '') problems.name = SCRAPING_TEXT.name
    if (!form.accountId) problems.accountId = SCRAPING_TEXT.account
  }
  if (step >= 1 && cleanSourceValue(form.sourceType, form.sourceValue) === '')
    problems.sourceValue = SCRAPING_TEXT.sourceValue
  if (step >= 2) {
    // product.md §5: step 3 is always allowed; its values are checked here only so the request cannot fail on them.
    const result = filtersSchema.safeParse(form)
    if (!result.success)
      for (const issue of result.error.issues) problems[String(issue.path[0])] ??= issue.message
    if (form.aiIdealCustomer.trim() !== '') {
      const score = Number(form.aiMinScore)
      if (!/^\d+$/.test(form.aiMinScore.trim()) || score > 100) problems.aiMinScore = SCRAPING_TEXT.aiMinScore
      if (form.aiIdealCustomer.trim().length > 1000) problems.aiIdealCustomer = SCRAPING_TEXT.aiIdealCustomer
    }
  }
  return problems
}

/** The product.md §7 POST /lead-scraping/campaigns body. */
export function scrapingRequest(form: ScrapingForm) {
  return {
    name: form.name.trim(),
    account_id: form.accountId,
    sources: { type: form.sourceType, value: cleanSourceValue(form.sourceType, form.sourceValue) },
    target_count: targetCountOf(form.targetCount),
    filters: {
      min_followers: Number(form.minFollowers.trim() || 0),
      max_followers: form.maxFollowers.trim() === '' ? null : Number(form.maxFollowers),
      verified_only: form.verifiedOnly,
      has_bio: form.hasBio,
      exclude_business: form.excludeBusiness,
    },
    ...(form.aiIdealCustomer.trim()
      ? { ai_ideal_customer: form.aiIdealCustomer.trim(), ai_min_score: Number(form.aiMinScore) }
      : {}),
  }
}

const CRITERIA: Record<string, (value: string) => string> = {
  followers: (v) => `Followers of @${v}`,
  following: (v) => `Following of @${v}`,
  hashtag: (v) => `#${v}`,
  keyword: (v) => `"${v}"`,
}

/** The list view's criteria text. */
export function criteriaText(sources: { type: string; value: string }[]): string {
  return sources.map((s) => (CRITERIA[s.type] ?? String)(s.value)).join(', ')
}
