import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { NO_FOLLOWUPS } from '../api/get-automation-results'
import type { Automation } from '../api/types'
import { AutomationCard } from './automation-card'

const automation: Automation = {
  id: 'a1',
  account_id: 'acc-1',
  user_id: 'u1',
  workspace_id: 'u1',
  name: 'Lookbook',
  trigger: 'comment_keyword',
  media_id: '17900000000000001',
  keywords: ['guide', 'lookbook'],
  reply_text: 'Here it is',
  public_reply_text: null,
  followup_text: null,
  followup_delay_minutes: null,
  enabled: true,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
}

const value = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

describe('AutomationCard', () => {
  it('shows the trigger, keywords and results, counting failures as not sent, with the reasons', () => {
    renderApp(
      <AutomationCard
        automation={automation}
        results={{
          triggered: 7,
          sent: 4,
          refused: 2,
          failed: 1,
          replied: 3,
          conversationsStarted: 2,
          refusals: [
            { reason: 'The comment is more than 7 days old', count: 2 },
            { reason: 'Instagram could not be reached', count: 1 },
          ],
          lastTriggeredAt: new Date().toISOString(),
          followups: NO_FOLLOWUPS,
        }}
        toggling={false}
        onToggle={vi.fn()}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
      />,
    )
    expect(screen.getByText('Comment keyword · one post')).toBeInTheDocument()
    expect(screen.getByRole('list', { name: 'Keywords' })).toHaveTextContent('guidelookbook')
    expect(['Triggered', 'Sent', 'Refused', 'Replied', 'Conversations started'].map(value)).toEqual([
      '7',
      '4',
      '3',
      '3',
      '2',
    ])
    expect(screen.getByText('The comment is more than 7 days old')).toBeInTheDocument()
    expect(screen.getByText('Last triggered just now')).toBeInTheDocument()
    // no follow-up on this automation: nothing said about one
    expect(screen.queryByRole('region', { name: 'Follow-up' })).not.toBeInTheDocument()
  })

  it('shows its follow-up: when it goes, the text, sent, skipped and not sent with the reasons', () => {
    renderApp(
      <AutomationCard
        automation={{
          ...automation,
          trigger: 'dm_keyword',
          media_id: null,
          followup_text: 'Still thinking about it?',
          followup_delay_minutes: 90,
        }}
        results={{
          triggered: 5,
          sent: 5,
          refused: 0,
          failed: 0,
          replied: 2,
          conversationsStarted: 5,
          refusals: [],
          lastTriggeredAt: null,
          followups: {
            waiting: 1,
            sent: 2,
            skipped: 1,
            notSent: 1,
            reasons: [{ reason: 'Their last message is more than 24 hours old', count: 1 }],
          },
        }}
        toggling={false}
        onToggle={vi.fn()}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
      />,
    )
    const followup = screen.getByRole('region', { name: 'Follow-up' })
    expect(followup).toHaveTextContent("Follows up after 1 h 30 min if they don't answer· 1 waiting")
    expect(followup).toHaveTextContent('“Still thinking about it?”')
    expect(['Follow-ups sent', 'Skipped (answered)', 'Not sent'].map(value)).toEqual(['2', '1', '1'])
    expect(screen.getByText('Their last message is more than 24 hours old')).toBeInTheDocument()
  })

  it('is switched off and edited from its own controls; an unrun automation says so', async () => {
    const onToggle = vi.fn()
    const onEdit = vi.fn()
    renderApp(
      <AutomationCard
        automation={{ ...automation, trigger: 'story_mention', media_id: null, keywords: [] }}
        toggling={false}
        onToggle={onToggle}
        onEdit={onEdit}
        onDelete={vi.fn()}
      />,
    )
    expect(screen.getByText('Story mention')).toBeInTheDocument()
    expect(screen.getByText('Answers every story mention, no keyword needed')).toBeInTheDocument()
    expect(screen.getByText('Not triggered yet')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('switch', { name: 'Lookbook enabled' }))
    expect(onToggle).toHaveBeenCalledWith(false)
    await userEvent.click(screen.getByRole('button', { name: 'Edit Lookbook' }))
    expect(onEdit).toHaveBeenCalled()
  })

  it('shows a role that only reads whether it is on, with no switch, edit or delete to reach for', () => {
    renderApp(
      <AutomationCard
        automation={automation}
        toggling={false}
        readOnly
        onToggle={vi.fn()}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
      />,
    )
    expect(screen.getByText('On')).toBeInTheDocument()
    expect(screen.queryByRole('switch')).not.toBeInTheDocument()
    expect(screen.queryAllByRole('button')).toEqual([])
  })
})
