import type { Tables } from '@reachflow/db'

/** One line of the workspace's activity log (public.workspace_activity). */
export type ActivityEntry = Pick<
  Tables<'workspace_activity'>,
  'id' | 'at' | 'actor_id' | 'actor_label' | 'action' | 'subject_type' | 'subject_label' | 'details'
>

/** The log's actions, in the order the filter lists them, with how the filter names them. */
export const ACTIVITY_ACTIONS = {
  'campaign.launched': 'Campaign launched',
  'campaign.paused': 'Campaign paused',
  'campaign.resumed': 'Campaign resumed',
  'inbox.answered': 'Conversation answered',
  'inbox.assigned': 'Conversation assigned',
  'member.joined': 'Member joined',
  'member.role_changed': 'Member role changed',
  'member.removed': 'Member removed',
  'account.connected': 'Account connected',
  'account.removed': 'Account removed',
  'automation.created': 'Automation created',
  'automation.enabled': 'Automation enabled',
  'automation.disabled': 'Automation disabled',
} as const

export type ActivityAction = keyof typeof ACTIVITY_ACTIONS

/** Who did it: anyone (''), Reachflow itself ('reachflow'), or a member's user id. */
export interface ActivityFilters {
  action: ActivityAction | ''
  actor: string
  /** YYYY-MM-DD, the viewer's own days, both inclusive; '' for no bound. */
  from: string
  to: string
}

export const REACHFLOW_ACTOR = 'reachflow'

export const activityKeys = {
  all: ['activity'] as const,
  page: (filters: ActivityFilters, page: number) => ['activity', 'page', filters, page] as const,
  people: (workspaceId: string) => ['activity', 'people', workspaceId] as const,
}
