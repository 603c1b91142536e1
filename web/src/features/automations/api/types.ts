import type { Tables } from '@reachflow/db'
import type { InstagramMediaItem } from '@reachflow/domain'

export type Automation = Tables<'instagram_automations'>

/** An Instagram account connected through Instagram's API: the ones automations run on. */
export interface OfficialAccount {
  id: string
  username: string
  status: string
}

export interface AutomationResults {
  triggered: number
  sent: number
  refused: number
  failed: number
  replied: number
  conversationsStarted: number
  /** The commonest reasons Instagram (or the 7-day rule) refused or failed a reply. */
  refusals: { reason: string; count: number }[]
  lastTriggeredAt: string | null
  /** What became of its follow-ups (none scheduled yet: all zero). */
  followups: FollowupResults
}

export interface FollowupResults {
  waiting: number
  sent: number
  /** The person answered before it was due. */
  skipped: number
  /** Refused (outside the 24-hour window, or by Instagram), failed, or cancelled. */
  notSent: number
  reasons: { reason: string; count: number }[]
}

/** A post or reel of the account's, as the post picker shows it (instagram-official/accounts/:id/media). */
export type AccountMedia = InstagramMediaItem

export const automationKeys = {
  all: ['automations'] as const,
  accounts: () => [...automationKeys.all, 'accounts'] as const,
  list: () => [...automationKeys.all, 'list'] as const,
  results: () => [...automationKeys.all, 'results'] as const,
  media: (accountId: string) => [...automationKeys.all, 'media', accountId] as const,
}
