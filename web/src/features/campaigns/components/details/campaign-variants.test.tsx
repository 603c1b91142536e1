import { ROLE_NOT_ALLOWED } from '@reachflow/domain'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { workAs } from '@/testing/workspace-role'
import type { Campaign } from '../../api/types'
import type { VariantRow } from '../../variant-results'
import { CampaignVariants } from './campaign-variants'

const api = vi.hoisted(() => ({ stats: vi.fn(), save: vi.fn() }))
vi.mock('../../api/get-variant-stats', () => ({ getVariantStats: api.stats }))
vi.mock('../../api/update-winner-rule', () => ({ updateWinnerRule: api.save }))

const row = (over: Partial<VariantRow>): VariantRow => ({
  variant_id: 'v',
  step: 0,
  kind: 'opening',
  template: 'Hi',
  first_slot: 0,
  current_slot: 0,
  sent: 0,
  replies: 0,
  first_sent_at: null,
  last_sent_at: null,
  is_winner: false,
  personalized: 0,
  personalized_sample: null,
  ...over,
})
const campaign = (over: Partial<Campaign> = {}) =>
  ({ id: 'c1', status: 'running', winner_after_sends: null, winner_chosen_at: null, ...over }) as Campaign

beforeEach(() => {
  workAs('editor')
  api.stats.mockReset()
  api.save.mockReset().mockResolvedValue(undefined)
})

describe('results per message', () => {
  it('shows each variant with its figures, the winner and when it won, and texts no longer sent', async () => {
    api.stats.mockResolvedValue([
      row({ variant_id: 'a', template: 'Hi A', first_slot: 0, current_slot: 0, sent: 120, replies: 12 }),
      row({
        variant_id: 'b',
        template: 'Hi B',
        first_slot: 1,
        current_slot: 1,
        sent: 120,
        replies: 30,
        is_winner: true,
      }),
      row({
        variant_id: 'old',
        template: 'Hi old A',
        first_slot: 0,
        current_slot: null,
        sent: 40,
        replies: 2,
      }),
      row({
        variant_id: null,
        kind: 'unknown',
        template: null,
        first_slot: null,
        current_slot: null,
        sent: 7,
        replies: 1,
      }),
      row({ variant_id: 'f', step: 1, kind: 'follow_up', template: 'Bump', sent: 60, replies: 3 }),
    ])
    renderApp(
      <CampaignVariants
        campaign={campaign({ winner_after_sends: 100, winner_chosen_at: '2026-11-20T14:03:00Z' })}
        live={false}
      />,
    )
    const b = await screen.findByText('Variant B', { selector: '[data-testid="variant-row"] p' })
    const bRow = b.closest('li') as HTMLElement
    expect(within(bRow).getByTestId('variant-sent')).toHaveTextContent('120')
    expect(within(bRow).getByTestId('variant-rate')).toHaveTextContent('25%')
    expect(within(bRow).getByText('Winner')).toBeInTheDocument()
    expect(screen.getByTestId('variant-winner')).toHaveTextContent(/Variant B won on Nov 20, 2026/)
    // the winner replaces the hint
    expect(screen.queryByTestId('variant-hint')).toBeNull()
    const old = screen.getByText('Earlier text (was A)').closest('li') as HTMLElement
    expect(within(old).getByText('No longer sent')).toBeInTheDocument()
    expect(screen.getByText('Sent before results per message were recorded.')).toBeInTheDocument()
    expect(screen.getByText('Follow-up 1')).toBeInTheDocument()
    expect(screen.getByLabelText(/Use the winner after N sends per variant/)).toBeChecked()
  })

  it('turns the winner rule on for the campaign and refuses N outside 30-10,000', async () => {
    const user = userEvent.setup()
    api.stats.mockResolvedValue([
      row({ template: 'Hi A', sent: 10, replies: 1 }),
      row({ variant_id: 'b', template: 'Hi B', first_slot: 1, current_slot: 1, sent: 10, replies: 2 }),
    ])
    renderApp(<CampaignVariants campaign={campaign()} live={false} />)
    expect(await screen.findByTestId('variant-hint')).toHaveTextContent(
      'Too early to tell — need ~59 more sends per variant',
    )
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull()
    await user.click(screen.getByLabelText(/Use the winner after N sends per variant/))
    const sends = screen.getByLabelText('Sends per variant')
    await user.clear(sends)
    await user.type(sends, '12')
    expect(screen.getByText('Use the winner after 30 to 10,000 sends per variant')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    await user.clear(sends)
    await user.type(sends, '200')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(api.save).toHaveBeenCalledWith('c1', 200))
    expect(await screen.findByText('Winner rule saved: after 200 sends')).toBeInTheDocument()
  })

  it("says how many of a variant's sends the AI rewrote and what went out, only where it did", async () => {
    api.stats.mockResolvedValue([
      row({
        template: 'Hi {name}',
        sent: 10,
        replies: 2,
        personalized: 3,
        personalized_sample: 'Hi Ann, your thread on pricing was great',
      }),
      row({ variant_id: 'b', template: 'Hey {name}', first_slot: 1, current_slot: 1, sent: 10, replies: 1 }),
    ])
    renderApp(<CampaignVariants campaign={campaign()} live={false} />)
    const [a, b] = await screen.findAllByTestId('variant-row')
    expect(a).toHaveTextContent('Personalised by AI: 3 of 10 sent')
    expect(a).toHaveTextContent('Latest sent: Hi Ann, your thread on pricing was great')
    expect(b).not.toHaveTextContent('Personalised by AI')
  })

  it('cannot compare a single message, and says why loading failed', async () => {
    api.stats.mockResolvedValueOnce([row({ template: 'Only one', sent: 5 })])
    const { unmount } = renderApp(<CampaignVariants campaign={campaign()} live={false} />)
    expect(await screen.findByText('Needs at least two opening messages to compare.')).toBeInTheDocument()
    expect(screen.getByLabelText(/Use the winner after N sends per variant/)).toBeDisabled()
    expect(screen.queryByTestId('variant-hint')).toBeNull()
    unmount()
    api.stats.mockRejectedValueOnce(new Error('Could not load the results per message: boom'))
    renderApp(<CampaignVariants campaign={campaign()} live={false} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the results per message: boom')
  })
  it('shows a viewer the winner rule as it is set, with no checkbox, number or Save to change it', async () => {
    workAs('viewer')
    api.stats.mockResolvedValue([
      row({ variant_id: 'a', template: 'Hi', sent: 40, replies: 4 }),
      row({ variant_id: 'b', template: 'Hey', first_slot: 1, current_slot: 1, sent: 40, replies: 2 }),
    ])
    const { unmount } = renderApp(
      <CampaignVariants campaign={campaign({ winner_after_sends: 100 })} live={false} />,
    )
    const rule = await screen.findByTestId('winner-rule')
    expect(rule).toHaveTextContent('Use the winner after 100 sends per variant')
    expect(within(rule).getByTestId('read-only-note')).toHaveTextContent(ROLE_NOT_ALLOWED)
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument()
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument()
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
    unmount()
    renderApp(<CampaignVariants campaign={campaign()} live={false} />)
    expect(await screen.findByTestId('winner-rule')).toHaveTextContent('All messages keep rotating')
  })
})
