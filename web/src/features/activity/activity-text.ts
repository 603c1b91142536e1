import type { ActivityEntry } from './api/types'
import { ACTIVITY_ACTIONS } from './api/types'

const text = (value: unknown) => (typeof value === 'string' ? value : '')
const platformNames: Record<string, string> = { twitter: 'X', instagram: 'Instagram' }

/** Who did it, as the log names them: the member's e-mail, or Reachflow (the runner, the scheduler). */
export function activityActor(entry: Pick<ActivityEntry, 'actor_label'>): string {
  return entry.actor_label ?? 'Reachflow'
}

/** The action as the filter names it ("Campaign launched"). */
export function activityActionLabel(action: string): string {
  return ACTIVITY_ACTIONS[action as keyof typeof ACTIVITY_ACTIONS] ?? action
}

/** What happened, in a sentence after the actor ("launched the campaign Founders"). */
export function describeActivity(entry: Pick<ActivityEntry, 'action' | 'subject_label' | 'details'>): string {
  const subject = entry.subject_label ?? ''
  const details =
    entry.details && typeof entry.details === 'object' && !Array.isArray(entry.details) ? entry.details : {}
  switch (entry.action) {
    case 'campaign.launched':
      return `launched the campaign ${subject}`
    case 'campaign.paused':
      return `paused the campaign ${subject}`
    case 'campaign.resumed':
      return `resumed the campaign ${subject}`
    case 'inbox.answered':
      return `answered ${subject}`
    case 'inbox.assigned':
      return text(details.assigned_to)
        ? `assigned ${subject} to ${text(details.assigned_to)}`
        : `unassigned ${subject}`
    case 'member.joined':
      return `added ${subject} as ${text(details.role)}`
    case 'member.role_changed':
      return `changed ${subject} from ${text(details.from)} to ${text(details.to)}`
    case 'member.removed':
      return `removed ${subject} (${text(details.role)})`
    case 'account.connected':
      return `connected ${subject} on ${platformNames[text(details.platform)] ?? text(details.platform)}`
    case 'account.removed':
      return `removed the account ${subject}`
    case 'automation.created':
      return `created the automation ${subject}`
    case 'automation.enabled':
      return `enabled the automation ${subject}`
    case 'automation.disabled':
      return `disabled the automation ${subject}`
    default:
      return `${activityActionLabel(entry.action)} ${subject}`.trim()
  }
}
