import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { CampaignLead } from '../../api/get-campaign-leads'
import { CampaignLeads, skipReasonText } from './campaign-leads'

const api = vi.hoisted(() => ({ leads: vi.fn() }))
vi.mock('../../api/get-campaign-leads', () => ({ getCampaignLeads: api.leads }))

const INSTAGRAM_NOTICE =
  "This account can't receive your message because they don't allow new message requests from everyone."
const X_NOTICE = '@quiet has a closed inbox. If you know their X Number you can still message them.'

const lead = (over: Partial<CampaignLead>): CampaignLead => ({
  id: over.username ?? 'l',
  username: 'ann',
  profile_data: {},
  state: 'skipped',
  skip_reason: null,
  current_step: 0,
  last_sent_at: null,
  next_send_at: null,
  replied_at: null,
  reply_text: null,
  last_error: null,
  collected_at: '2026-11-28T10:00:00Z',
  ...over,
})

describe('a skipped lead in the Leads tab', () => {
  it("shows the refusal's own words, short, with the whole notice as its tooltip", async () => {
    api.leads.mockResolvedValue([
      lead({ username: 'quiet', skip_reason: 'closed_inbox', last_error: `${X_NOTICE} (closed_inbox)` }),
      lead({ username: 'private', skip_reason: 'cannot_message', last_error: INSTAGRAM_NOTICE }),
      lead({
        username: 'listed',
        skip_reason: 'do_not_contact',
        last_error: 'The person is on the do-not-contact list.',
      }),
      lead({ username: 'old', skip_reason: 'requires_verified' }),
      lead({ username: 'sent', state: 'sent', last_error: 'This step was already attempted' }),
    ])
    renderApp(<CampaignLeads campaignId="c1" live={false} />)
    const row = async (name: string) => (await screen.findByText(`@${name}`)).closest('tr') as HTMLElement

    const quiet = within(await row('quiet'))
    expect(quiet.getByText('Skipped')).toBeVisible()
    expect(quiet.getByTestId('skip-reason')).toHaveTextContent(/^@quiet has a closed inbox$/)
    expect(quiet.getByTestId('skip-reason')).toHaveAttribute('title', `${X_NOTICE} (closed_inbox)`)

    const instagram = within(await row('private')).getByTestId('skip-reason')
    expect(instagram).toHaveTextContent(/^This account can't receive your message because they don't…$/)
    expect(instagram).not.toHaveTextContent('cannot message')
    expect(instagram).toHaveAttribute('title', INSTAGRAM_NOTICE)

    expect(within(await row('listed')).getByTestId('skip-reason')).toHaveTextContent(
      /^The person is on the do-not-contact list$/,
    )
    // stored before the words were: the reason's name
    expect(within(await row('old')).getByTestId('skip-reason')).toHaveTextContent(/^requires verified$/)
    // a lead that was not skipped shows no reason, whatever its last note
    expect(within(await row('sent')).queryByTestId('skip-reason')).toBeNull()
  })

  it('cuts a long reason at a word and never leaves it empty', () => {
    expect(skipReasonText({ skip_reason: 'cannot_message', last_error: '   ' })).toBe('cannot message')
    expect(skipReasonText({ skip_reason: null, last_error: null })).toBeNull()
    const cut = skipReasonText({ skip_reason: null, last_error: 'word '.repeat(30) }) ?? ''
    expect(cut.length).toBeLessThanOrEqual(61)
    expect(cut).toMatch(/^word( word)*…$/)
  })
})
