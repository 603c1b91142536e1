import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { MessageLog } from '../../api/get-campaign-messages'
import { CampaignMessages } from './campaign-messages'

const api = vi.hoisted(() => ({ messages: vi.fn() }))
vi.mock('../../api/get-campaign-messages', () => ({ getCampaignMessages: api.messages }))

const log = (over: Partial<MessageLog>): MessageLog => ({
  id: 'm',
  status: 'sent',
  target_username: 'ann',
  message_sent: 'Hi Ann',
  message_type: 'initial',
  step: 0,
  error: null,
  sent_at: new Date().toISOString(),
  variant_index: null,
  personalization: null,
  personalization_note: null,
  variant: null,
  ...over,
})

describe('message log', () => {
  it('shows a DM deferred for a slow page as pending, its note not as an error; a failed one as failed', async () => {
    api.messages.mockResolvedValue([
      log({
        id: 'd',
        target_username: 'slowpage',
        status: 'deferred',
        error: 'Not sent yet: Loading took longer than 40 s; it is sent on a later tick',
      }),
      log({ id: 'f', target_username: 'refused', status: 'failed', error: 'Not delivered' }),
    ])
    renderApp(<CampaignMessages campaignId="c1" live={false} />)
    const rows = within(await screen.findByTestId('campaign-messages')).getAllByRole('listitem')
    const [deferred, failed] = rows as [HTMLElement, HTMLElement]
    expect(within(deferred).getByText('Pending')).toHaveAttribute('data-icon', 'clock')
    expect(within(deferred).getByText(/^Not sent yet:/)).not.toHaveClass('text-red-600')
    expect(within(failed).getByText('Failed')).toHaveAttribute('data-tone', 'red')
    expect(within(failed).getByText('Not delivered')).toHaveClass('text-red-600')
  })

  it('shows a lead the platform refused as skipped, its notice not as an error', async () => {
    api.messages.mockResolvedValue([
      log({
        id: 's',
        target_username: 'quiet',
        status: 'skipped',
        error: '@quiet has a closed inbox. (closed_inbox)',
      }),
    ])
    renderApp(<CampaignMessages campaignId="c1" live={false} />)
    const row = within(await screen.findByTestId('campaign-messages')).getByRole('listitem')
    expect(within(row).getByText('Skipped')).toHaveAttribute('data-tone', 'grey')
    expect(within(row).queryByText('Unknown')).toBeNull()
    expect(within(row).getByText(/closed inbox/)).not.toHaveClass('text-red-600')
  })
})
