import { ROLE_NOT_ALLOWED } from '@reachflow/domain'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { workAs } from '@/testing/workspace-role'
import type { CampaignStats } from '../../api/get-campaign-details'
import type { Campaign } from '../../api/types'
import type { VariantRow } from '../../variant-results'
import { CampaignDetailsDialog } from './campaign-details-dialog'

// Only the reads and the two writes are replaced (jsdom has no server); the dialog, its tabs, the
// variants panel and the role hook are real.
const api = vi.hoisted(() => ({
  details: vi.fn(),
  variants: vi.fn(),
  launch: vi.fn(),
  pause: vi.fn(),
}))
vi.mock('../../api/get-campaign-details', () => ({ getCampaignDetails: api.details }))
vi.mock('../../api/get-variant-stats', () => ({ getVariantStats: api.variants }))
vi.mock('../../api/get-campaign-waits', () => ({ getCampaignWaits: async () => new Map() }))
vi.mock('../../api/launch-campaign', () => ({ launchCampaign: api.launch }))
vi.mock('../../api/pause-campaign', () => ({ pauseCampaign: api.pause }))

const campaign = (status: Campaign['status']): Campaign => ({
  id: 'c1',
  name: 'Client launch',
  status,
  industry: null,
  stage: null,
  account_id: 'a1',
  scraping_campaign_id: null,
  messages_sent: 1,
  messages_failed: 0,
  total_attempts: 1,
  response_count: 0,
  daily_message_limit: 50,
  target_count: 2,
  message_template: null,
  sequences: { messages: ['Hi', 'Hey'], followUpEnabled: false, followUpMessages: [], followUpDays: 3 },
  schedule: { timezone: 'UTC', timeFrom: '09:00', timeTo: '17:00', activeDays: ['monday'] },
  run_immediately: false,
  error_message: null,
  ai_personalization: false,
  winner_after_sends: 100,
  winner_chosen_at: null,
  created_at: '2026-11-20T10:00:00Z',
  started_at: null,
  completed_at: null,
  updated_at: '2026-11-20T10:00:00Z',
  platform: { name: 'twitter', display_name: 'Twitter' },
  social_account: { id: 'a1', username: 'client_brand', status: 'active' },
  scraping_campaign: null,
  figures: {
    target: 2,
    not_deliverable: 0,
    eligible: 2,
    contacted: 1,
    replied: 0,
    delivered: 1,
    not_delivered: 0,
    unconfirmed: 0,
    delivery_rate: 100,
    progress: 50,
    reply_rate: 0,
  },
})

const stats: CampaignStats = {
  campaignId: 'c1',
  status: 'running',
  leads: { total: 2, pending: 1, contacted: 1, skipped: 0, failed: 0, uncertain: 0, replied: 0 },
  totalLeads: 2,
  notDeliverable: 0,
  eligible: 2,
  messagesSent: 1,
  messagesFailed: 0,
  messagesUncertain: 0,
  totalAttempts: 1,
  responses: 0,
  replyRate: 0,
  deliveryRate: 100,
  progress: 50,
  sentToday: 1,
  daysOff: [],
  perDay: [],
}

const variant = (id: string, slot: number): VariantRow => ({
  variant_id: id,
  step: 0,
  kind: 'opening',
  template: id === 'a' ? 'Hi' : 'Hey',
  first_slot: slot,
  current_slot: slot,
  sent: 1,
  replies: 0,
  first_sent_at: null,
  last_sent_at: null,
  is_winner: false,
  personalized: 0,
  personalized_sample: null,
})

function open(status: Campaign['status']) {
  api.details.mockResolvedValue({ campaign: campaign(status), stats })
  renderApp(<CampaignDetailsDialog campaignId="c1" onClose={() => {}} />)
}

beforeEach(() => {
  for (const fn of Object.values(api)) fn.mockReset()
  api.variants.mockResolvedValue([variant('a', 0), variant('b', 1)])
  api.launch.mockResolvedValue({ message: null })
  api.pause.mockResolvedValue({ message: null })
})

describe('the campaign details dialog by role', () => {
  it.each(['running', 'paused', 'draft'] as const)(
    'shows a viewer a %s campaign with every tab and no way to change it',
    async (status) => {
      workAs('viewer')
      open(status)
      const dialog = await screen.findByRole('dialog', { name: 'Client launch' })
      await within(dialog).findByRole('tab', { name: 'Overview' })
      for (const name of ['Launch', 'Resume', 'Pause']) {
        expect(within(dialog).queryByRole('button', { name })).not.toBeInTheDocument()
      }
      expect(dialog).not.toHaveTextContent('No account: choose one to send again')

      await userEvent.setup().click(within(dialog).getByRole('tab', { name: 'Analytics' }))
      const rule = await within(dialog).findByTestId('winner-rule')
      expect(rule).toHaveTextContent('Use the winner after 100 sends per variant')
      expect(rule).toHaveTextContent(ROLE_NOT_ALLOWED)
      expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument()
      expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
      expect(api.launch).not.toHaveBeenCalled()
      expect(api.pause).not.toHaveBeenCalled()
    },
  )

  it('gives an editor Pause on a running campaign and the winner rule to change', async () => {
    workAs('editor')
    open('running')
    const dialog = await screen.findByRole('dialog', { name: 'Client launch' })
    const user = userEvent.setup()
    await user.click(await within(dialog).findByRole('button', { name: 'Pause' }))
    expect(api.pause).toHaveBeenCalledWith('c1')
    await user.click(within(dialog).getByRole('tab', { name: 'Analytics' }))
    expect(await within(dialog).findByLabelText(/Use the winner after N sends per variant/)).toBeChecked()
    expect(within(dialog).queryByTestId('winner-rule')).not.toBeInTheDocument()
  })

  it('gives an editor Resume on a paused campaign', async () => {
    workAs('editor')
    open('paused')
    const dialog = await screen.findByRole('dialog', { name: 'Client launch' })
    await userEvent.setup().click(await within(dialog).findByRole('button', { name: 'Resume' }))
    expect(api.launch).toHaveBeenCalledWith('c1')
  })
})
