import { describe, expect, it } from 'vitest'
import { toCsv } from '@/lib/csv'
import { activityActor, describeActivity } from './activity-text'
import { ACTIVITY_CSV_COLUMNS } from './api/export-activity'
import type { ActivityEntry } from './api/types'

const entry = (fields: Partial<ActivityEntry>): ActivityEntry => ({
  id: 'a1',
  at: '2026-11-28T09:00:00Z',
  actor_id: 'u1',
  actor_label: 'mia@agency.test',
  action: 'campaign.launched',
  subject_type: 'campaign',
  subject_label: 'Founders',
  details: {},
  ...fields,
})

describe('the activity log in words', () => {
  it('names the actor, or Reachflow when the system did it', () => {
    expect(activityActor(entry({}))).toBe('mia@agency.test')
    expect(activityActor(entry({ actor_id: null, actor_label: null }))).toBe('Reachflow')
  })

  it('says what happened for each kind of line', () => {
    expect(describeActivity(entry({}))).toBe('launched the campaign Founders')
    expect(
      describeActivity(
        entry({
          action: 'inbox.assigned',
          subject_label: '@keen',
          details: { assigned_to: 'sam@agency.test' },
        }),
      ),
    ).toBe('assigned @keen to sam@agency.test')
    expect(
      describeActivity(
        entry({ action: 'inbox.assigned', subject_label: '@keen', details: { assigned_to: null } }),
      ),
    ).toBe('unassigned @keen')
    expect(
      describeActivity(
        entry({
          action: 'member.role_changed',
          subject_label: 'sam@agency.test',
          details: { from: 'agent', to: 'admin' },
        }),
      ),
    ).toBe('changed sam@agency.test from agent to admin')
    expect(
      describeActivity(
        entry({ action: 'account.connected', subject_label: '@studio', details: { platform: 'twitter' } }),
      ),
    ).toBe('connected @studio on X')
  })

  it('exports a name that looks like a formula as text, not a formula', () => {
    const csv = toCsv([entry({ subject_label: '=HYPERLINK("http://evil.test")' })], ACTIVITY_CSV_COLUMNS)
    const [header, row] = csv.trimEnd().split('\r\n')
    expect(header).toBe('"When","Who","Action","Subject","What Happened"')
    expect(row).toContain(`"'=HYPERLINK(""http://evil.test"")"`)
  })
})
