// The Automations tab's Export: every automation with what it answers and what it did.
import type { CsvColumn } from '@/lib/csv'
import type { Automation, AutomationResults, OfficialAccount } from './api/types'
import { type AutomationTrigger, TRIGGER_LABEL } from './automation-form'

export interface AutomationRow {
  automation: Automation
  account: OfficialAccount | undefined
  results: AutomationResults | undefined
}

export const AUTOMATION_CSV: CsvColumn<AutomationRow>[] = [
  { header: 'Account', value: (r) => r.account?.username },
  { header: 'Name', value: (r) => r.automation.name },
  {
    header: 'Trigger',
    value: (r) => TRIGGER_LABEL[r.automation.trigger as AutomationTrigger] ?? r.automation.trigger,
  },
  {
    header: 'Post',
    value: (r) => r.automation.media_id ?? (r.automation.trigger === 'comment_keyword' ? 'Any post' : ''),
  },
  { header: 'Keywords', value: (r) => r.automation.keywords.join(', ') },
  { header: 'Reply', value: (r) => r.automation.reply_text },
  { header: 'Public reply', value: (r) => r.automation.public_reply_text },
  { header: 'Enabled', value: (r) => (r.automation.enabled ? 'Yes' : 'No') },
  { header: 'Triggered', value: (r) => r.results?.triggered ?? 0 },
  { header: 'Sent', value: (r) => r.results?.sent ?? 0 },
  { header: 'Refused', value: (r) => r.results?.refused ?? 0 },
  { header: 'Failed', value: (r) => r.results?.failed ?? 0 },
  { header: 'Replied', value: (r) => r.results?.replied ?? 0 },
  { header: 'Conversations started', value: (r) => r.results?.conversationsStarted ?? 0 },
  { header: 'Follow-up after (minutes)', value: (r) => r.automation.followup_delay_minutes },
  { header: 'Follow-up', value: (r) => r.automation.followup_text },
  { header: 'Follow-ups sent', value: (r) => r.results?.followups.sent ?? 0 },
  { header: 'Follow-ups skipped (answered)', value: (r) => r.results?.followups.skipped ?? 0 },
  { header: 'Follow-ups not sent', value: (r) => r.results?.followups.notSent ?? 0 },
  { header: 'Last triggered', value: (r) => r.results?.lastTriggeredAt },
]
