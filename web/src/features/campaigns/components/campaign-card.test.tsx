import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Campaign } from '../api/types'
import { CampaignCard } from './campaign-card'

const campaign: Campaign = {
  id: 'c1',
  name: 'Founders',
  status: 'paused',
  industry: null,
  stage: null,
  account_id: 'a1',
  scraping_campaign_id: 's1',
  messages_sent: 2,
  messages_failed: 0,
  // the third message is still being confirmed
  total_attempts: 3,
  response_count: 1,
  daily_message_limit: 50,
  target_count: 4,
  message_template: null,
  sequences: { messages: ['hi'], followUpEnabled: false, followUpMessages: [], followUpDays: 3 },
  schedule: { timezone: 'UTC', timeFrom: '09:00', timeTo: '17:00', activeDays: ['monday'] },
  run_immediately: false,
  error_message: null,
  ai_personalization: false,
  winner_after_sends: null,
  winner_chosen_at: null,
  created_at: '2026-11-20T10:00:00Z',
  started_at: '2026-11-20T10:00:00Z',
  completed_at: null,
  updated_at: '2026-11-20T10:00:00Z',
  platform: { name: 'twitter', display_name: 'Twitter' },
  social_account: { id: 'a1', username: 'acct', status: 'active' },
  scraping_campaign: { id: 's1', name: 'Source' },
  leads: 6,
  contacted: 3,
  replied: 1,
}

describe('campaign card figures', () => {
  it('delivery rate leaves an unconfirmed send out; progress is of the people it will message', () => {
    render(<CampaignCard campaign={campaign} onOpen={() => {}} />)
    const card = screen.getByTestId('campaign-card')
    // 2 delivered, 0 failed, 1 being confirmed: 100 %, not 67 %
    expect(card).toHaveTextContent(/Delivery Rate\s*100%/)
    // 3 contacted of the 4 it will message (6 leads, 2 skipped): 75 %, not 50 %
    expect(card).toHaveTextContent('75% contacted')
    expect(card).toHaveTextContent(/Total Leads\s*6/)
  })

  it('a send known not to have gone out counts against delivery', () => {
    render(<CampaignCard campaign={{ ...campaign, messages_failed: 1 }} onOpen={() => {}} />)
    expect(screen.getByTestId('campaign-card')).toHaveTextContent(/Delivery Rate\s*67%/)
  })
})
