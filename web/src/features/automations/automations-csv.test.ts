import { describe, expect, it } from 'vitest'
import { toCsv } from '@/lib/csv'
import type { Automation, AutomationResults } from './api/types'
import { AUTOMATION_CSV } from './automations-csv'

const automation = {
  id: 'a1',
  account_id: 'acc',
  user_id: 'u',
  name: 'Guide',
  trigger: 'comment_keyword',
  media_id: null,
  keywords: ['guide', 'pdf'],
  reply_text: '=HYPERLINK("x")',
  public_reply_text: 'Sent you a DM!',
  enabled: true,
  followup_text: null,
  followup_delay_minutes: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
} as Automation
const results: AutomationResults = {
  triggered: 5,
  sent: 4,
  refused: 1,
  failed: 0,
  replied: 2,
  conversationsStarted: 3,
  refusals: [],
  lastTriggeredAt: '2026-11-27T09:00:00Z',
  followups: { waiting: 0, sent: 0, skipped: 0, notSent: 0, reasons: [] },
}

describe('the Automations export', () => {
  it('has each automation with its account, rules and results, formulas defused', () => {
    const csv = toCsv(
      [{ automation, account: { id: 'acc', username: 'lumen.studio', status: 'active' }, results }],
      AUTOMATION_CSV,
    )
    const [header, row] = csv.trim().split(/\r?\n/)
    expect(header).toContain('"Account","Name","Trigger","Post","Keywords","Reply"')
    expect(row).toContain('"lumen.studio","Guide","Comment keyword","Any post","guide, pdf"')
    expect(row).toContain(`"'=HYPERLINK(""x"")"`)
    expect(row).toContain('"Yes","5","4","1","0","2","3"')
  })

  it('counts zero for an automation not triggered yet', () => {
    const csv = toCsv([{ automation, account: undefined, results: undefined }], AUTOMATION_CSV)
    expect(csv.trim().split(/\r?\n/)[1]).toContain('"Yes","0","0","0","0","0","0"')
  })
})
