import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { Automation } from '../api/types'
import { AutomationCard } from './automation-card'

const automation: Automation = {
  id: 'a1',
  account_id: 'acc-1',
  user_id: 'u1',
  name: 'Lookbook',
  trigger: 'comment_keyword',
  media_id: '17900000000000001',
  keywords: ['guide', 'lookbook'],
  reply_text: 'Here it is',
  public_reply_text: null,
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
})
