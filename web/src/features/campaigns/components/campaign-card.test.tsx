import { EMPTY_CAMPAIGN_FIGURES } from '@reachflow/domain'
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
  figures: {
    target: 6,
    not_deliverable: 2,
    eligible: 4,
    contacted: 3,
    replied: 1,
    delivered: 2,
    not_delivered: 0,
    unconfirmed: 1,
    delivery_rate: 100,
    progress: 75,
    reply_rate: 50,
  },
}

describe('campaign card figures', () => {
  // the figures come from rpc/campaign_figures (53- and 70-*.test.sql compute them from rows)
  it('shows Total Leads, the delivery rate and the progress of its figures', () => {
    render(<CampaignCard campaign={campaign} onOpen={() => {}} />)
    const card = screen.getByTestId('campaign-card')
    // 2 delivered, 0 failed, 1 being confirmed: 100 %, not 67 %
    expect(card).toHaveTextContent(/Delivery Rate\s*100%/)
    // 3 contacted of the 4 it will message (6 leads, 2 skipped): 75 %, not 50 %
    expect(card).toHaveTextContent('75% contacted')
    expect(card).toHaveTextContent(/Total Leads\s*6/)
  })

  it('shows the figures it is given, rounded, with the counts behind the progress', () => {
    render(
      <CampaignCard
        campaign={{ ...campaign, figures: { ...campaign.figures, not_delivered: 1, delivery_rate: 66.7 } }}
        onOpen={() => {}}
      />,
    )
    const card = screen.getByTestId('campaign-card')
    expect(card).toHaveTextContent(/Delivery Rate\s*67%/)
    expect(card).toHaveTextContent('(3 of 4 eligible)')
  })

  it('a rate with nothing to divide by reads "—", not 0 %', () => {
    render(
      <CampaignCard
        campaign={{
          ...campaign,
          figures: { ...EMPTY_CAMPAIGN_FIGURES, target: 3, eligible: 3, progress: 0 },
        }}
        onOpen={() => {}}
      />,
    )
    const card = screen.getByTestId('campaign-card')
    expect(card).toHaveTextContent(/Delivery Rate\s*—/)
    expect(card).toHaveTextContent('0% contacted')
  })
})
