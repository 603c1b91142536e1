import { ROLE_NOT_ALLOWED } from '@reachflow/domain'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { workAs } from '@/testing/workspace-role'
import type { Campaign } from '../api/types'
import { CampaignsTab } from './campaigns-tab'

// Only the reads are replaced (jsdom has no server); the tab, its cards and the role hook are real.
const reads = vi.hoisted(() => ({ campaigns: vi.fn<() => Promise<unknown[]>>() }))
vi.mock('../api/get-campaigns', () => ({ getCampaigns: reads.campaigns }))
vi.mock('../api/get-campaign-waits', () => ({ getCampaignWaits: async () => new Map() }))

const campaign = {
  id: 'c1',
  name: 'Client launch',
  status: 'paused',
  industry: null,
  stage: null,
  account_id: 'a1',
  scraping_campaign_id: null,
  messages_sent: 0,
  messages_failed: 0,
  total_attempts: 0,
  response_count: 0,
  daily_message_limit: 50,
  target_count: 1,
  message_template: null,
  sequences: { messages: ['hi'], followUpEnabled: false, followUpMessages: [], followUpDays: 3 },
  schedule: { timezone: 'UTC', timeFrom: '09:00', timeTo: '17:00', activeDays: ['monday'] },
  run_immediately: false,
  error_message: null,
  ai_personalization: false,
  winner_after_sends: null,
  winner_chosen_at: null,
  created_at: '2026-11-20T10:00:00Z',
  started_at: null,
  completed_at: null,
  updated_at: '2026-11-20T10:00:00Z',
  platform: { name: 'twitter', display_name: 'Twitter' },
  social_account: { id: 'a1', username: 'client_brand', status: 'active' },
  scraping_campaign: null,
  figures: {
    target: 1,
    not_deliverable: 0,
    eligible: 1,
    contacted: 0,
    replied: 0,
    delivered: 0,
    not_delivered: 0,
    unconfirmed: 0,
    delivery_rate: 0,
    progress: 0,
    reply_rate: 0,
  },
} satisfies Campaign

beforeEach(() => reads.campaigns.mockReset())

describe('the Campaigns tab by role', () => {
  it('tells a viewer with no campaigns why there is no button to create one', async () => {
    workAs('viewer')
    reads.campaigns.mockResolvedValue([])
    renderApp(<CampaignsTab onCreate={() => {}} onOpen={() => {}} />)
    expect(await screen.findByText('No campaigns yet')).toBeInTheDocument()
    expect(screen.getByTestId('read-only-note')).toHaveTextContent(ROLE_NOT_ALLOWED)
    expect(screen.queryByRole('button', { name: 'Create Your First Campaign' })).not.toBeInTheDocument()
  })

  it('still lets a viewer read and open every campaign', async () => {
    workAs('viewer')
    reads.campaigns.mockResolvedValue([campaign])
    const onOpen = vi.fn()
    renderApp(<CampaignsTab onCreate={() => {}} onOpen={onOpen} />)
    const card = await screen.findByTestId('campaign-card')
    expect(card).toHaveTextContent('Client launch')
    await userEvent.setup().click(screen.getByRole('button', { name: /Client launch/ }))
    expect(onOpen).toHaveBeenCalledWith('c1')
  })

  it('gives an editor with no campaigns the button to create the first', async () => {
    workAs('editor')
    reads.campaigns.mockResolvedValue([])
    const onCreate = vi.fn()
    renderApp(<CampaignsTab onCreate={onCreate} onOpen={() => {}} />)
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Create Your First Campaign' }))
    expect(onCreate).toHaveBeenCalledOnce()
    expect(screen.queryByTestId('read-only-note')).not.toBeInTheDocument()
  })
})
