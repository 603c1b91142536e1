import { describe, expect, it } from 'vitest'
import { pluralize } from '@/lib/format'
import { leadStepLabel } from './campaign-leads'

const lead = (over: Partial<Parameters<typeof leadStepLabel>[0]>) => ({
  state: 'pending',
  current_step: 0,
  next_send_at: null,
  replied_at: null,
  ...over,
})

describe('campaign lead Step column', () => {
  it('a replied lead shows what it replied to, not a follow-up as if still queued', () => {
    expect(leadStepLabel(lead({ state: 'sent', current_step: 1, replied_at: '2026-11-25T10:00:00Z' }))).toBe(
      'Replied after first message',
    )
    expect(leadStepLabel(lead({ state: 'sent', current_step: 2, replied_at: '2026-11-25T10:00:00Z' }))).toBe(
      'Replied after follow-up 1',
    )
  })

  it('names the next step while one is due and says Done when the sequence is over', () => {
    expect(leadStepLabel(lead({}))).toBe('First message next')
    expect(
      leadStepLabel(lead({ state: 'sent', current_step: 1, next_send_at: '2026-11-28T10:00:00Z' })),
    ).toBe('Follow-up 1 next')
    expect(leadStepLabel(lead({ state: 'sent', current_step: 1 }))).toBe('Done · first message sent')
    expect(leadStepLabel(lead({ state: 'failed', current_step: 1 }))).toBe('Follow-up 1 failed')
    expect(leadStepLabel(lead({ state: 'skipped' }))).toBe('—')
  })
})

describe('pluralize', () => {
  it('puts the noun in the right number', () => {
    expect(pluralize(1, 'day')).toBe('1 day')
    expect(pluralize(3, 'day')).toBe('3 days')
    expect(pluralize(1, 'follow-up')).toBe('1 follow-up')
    expect(pluralize(0, 'follow-up')).toBe('0 follow-ups')
    expect(pluralize(1200, 'lead')).toBe('1,200 leads')
  })
})
