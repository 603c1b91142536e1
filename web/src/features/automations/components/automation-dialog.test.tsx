import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { FOLLOWUP_NOT_FOR_COMMENTS, FOLLOWUP_RULE, MESSAGES } from '../automation-form'
import { AutomationDialog } from './automation-dialog'

// Only the transport is replaced: what the dialog sends, and what the database or function answers.
const transport = vi.hoisted(() => ({ insert: vi.fn(), invoke: vi.fn() }))
vi.mock('@/lib/supabase', () => ({
  supabase: {
    from: () => ({ insert: transport.insert }),
    functions: { invoke: transport.invoke },
  },
}))

const ACCOUNTS = [
  { id: 'acc-1', username: 'studio', status: 'active' },
  { id: 'acc-2', username: 'studio_two', status: 'active' },
]
const onClose = vi.fn()
beforeEach(() => {
  transport.insert.mockReset().mockResolvedValue({ error: null })
  transport.invoke.mockReset()
  onClose.mockReset()
})

describe('AutomationDialog', () => {
  it('says what is missing in each field and sends nothing', async () => {
    renderApp(<AutomationDialog accounts={ACCOUNTS} onClose={onClose} />)
    await userEvent.click(screen.getByRole('button', { name: 'Create automation' }))
    expect(await screen.findByText(MESSAGES.name)).toBeInTheDocument()
    expect(screen.getByText(MESSAGES.account)).toBeInTheDocument()
    expect(screen.getByText(MESSAGES.keywordsNeeded)).toBeInTheDocument()
    expect(screen.getByText(MESSAGES.reply)).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
    expect(transport.insert).not.toHaveBeenCalled()
  })

  it('offers the post choice and the public reply only for comments', async () => {
    renderApp(<AutomationDialog accounts={ACCOUNTS} onClose={onClose} />)
    expect(screen.getByLabelText(/Public reply to the comment/)).toBeInTheDocument()
    expect(screen.getByRole('group', { name: 'Which posts' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('radio', { name: 'DM keyword' }))
    expect(screen.queryByLabelText(/Public reply to the comment/)).not.toBeInTheDocument()
    expect(screen.queryByRole('group', { name: 'Which posts' })).not.toBeInTheDocument()
    expect(screen.getByLabelText('Reply (sent as a DM)')).toBeInTheDocument()
    // a story mention needs no keyword
    await userEvent.click(screen.getByRole('radio', { name: 'Story mention' }))
    expect(
      screen.getByText('(optional)', { selector: 'label[for="automation-keywords"] span' }),
    ).toBeInTheDocument()
  })

  it('turns typed keywords into chips and saves a comment automation on the chosen post', async () => {
    transport.invoke.mockResolvedValue({
      data: {
        media: [
          {
            id: '17900000000000002',
            caption: 'Reel: comment PRICE',
            kind: 'reel',
            permalink: null,
            postedAt: null,
          },
          {
            id: '17900000000000001',
            caption: 'Comment GUIDE for the lookbook',
            kind: 'post',
            permalink: null,
            postedAt: null,
          },
        ],
      },
      error: null,
    })
    renderApp(<AutomationDialog accounts={ACCOUNTS} accountId="acc-2" onClose={onClose} />)
    await userEvent.type(screen.getByLabelText('Name'), 'Lookbook')
    const keywords = screen.getByLabelText('Keywords')
    await userEvent.type(keywords, 'guide{Enter}Lookbook,GUIDE{Enter}')
    const chips = screen.getByRole('list', { name: 'Added keywords' })
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['guide', 'Lookbook'])
    expect(screen.getByText('"GUIDE" is already a keyword.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Remove keyword Lookbook' }))
    await userEvent.click(screen.getByRole('radio', { name: 'One post or reel' }))
    expect(transport.invoke).toHaveBeenCalledWith('instagram-official/accounts/acc-2/media', {
      method: 'GET',
    })
    await userEvent.click(await screen.findByRole('radio', { name: /Comment GUIDE for the lookbook/ }))
    await userEvent.type(screen.getByLabelText('Private reply (sent as a DM)'), 'Here it is')
    await userEvent.type(screen.getByLabelText(/Public reply to the comment/), 'Sent you a DM')
    await userEvent.click(screen.getByRole('button', { name: 'Create automation' }))
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(transport.insert).toHaveBeenCalledWith({
      account_id: 'acc-2',
      name: 'Lookbook',
      trigger: 'comment_keyword',
      media_id: '17900000000000001',
      keywords: ['guide'],
      reply_text: 'Here it is',
      public_reply_text: 'Sent you a DM',
      followup_text: null,
      followup_delay_minutes: null,
      enabled: true,
    })
  })

  it("shows the database's refusal as it comes and stays open", async () => {
    const refusal =
      "Automations run on an Instagram account connected through Instagram's API. Choose one of yours."
    transport.insert.mockResolvedValue({ error: { message: refusal, code: '23503' } })
    renderApp(<AutomationDialog accounts={ACCOUNTS} accountId="acc-1" onClose={onClose} />)
    await userEvent.click(screen.getByRole('radio', { name: 'Story reply' }))
    await userEvent.type(screen.getByLabelText('Name'), 'Story thanks')
    await userEvent.type(screen.getByLabelText('Reply (sent as a DM)'), 'Thank you!')
    await userEvent.click(screen.getByRole('switch', { name: 'Enabled' }))
    await userEvent.click(screen.getByRole('button', { name: 'Create automation' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal)
    expect(transport.insert).toHaveBeenCalledWith(
      expect.objectContaining({
        trigger: 'story_reply',
        keywords: [],
        enabled: false,
        public_reply_text: null,
      }),
    )
    expect(onClose).not.toHaveBeenCalled()
  })

  it('offers a follow-up for DMs with the 24-hour rule, says why not for comments, and saves it', async () => {
    renderApp(<AutomationDialog accounts={ACCOUNTS} accountId="acc-1" onClose={onClose} />)
    const followup = screen.getByRole('switch', { name: "Follow up if they don't answer" })
    // a comment trigger: no follow-up, and the reason
    expect(followup).toBeDisabled()
    expect(screen.getByText(FOLLOWUP_NOT_FOR_COMMENTS)).toBeInTheDocument()

    await userEvent.click(screen.getByRole('radio', { name: 'DM keyword' }))
    expect(screen.getByText(FOLLOWUP_RULE)).toBeInTheDocument()
    await userEvent.click(followup)
    await userEvent.type(screen.getByLabelText('Name'), 'Prices')
    await userEvent.type(screen.getByLabelText('Keywords'), 'price{Enter}')
    await userEvent.type(screen.getByLabelText('Reply (sent as a DM)'), 'Prices: https://example.com/p')
    await userEvent.clear(screen.getByLabelText('Hours'))
    await userEvent.type(screen.getByLabelText('Hours'), '24')
    await userEvent.click(screen.getByRole('button', { name: 'Create automation' }))
    expect(await screen.findByText(MESSAGES.followupHours)).toBeInTheDocument()
    expect(screen.getByText(MESSAGES.followup)).toBeInTheDocument()
    expect(screen.getByLabelText('Hours')).toHaveAttribute('aria-invalid', 'true')
    expect(transport.insert).not.toHaveBeenCalled()

    await userEvent.clear(screen.getByLabelText('Hours'))
    await userEvent.type(screen.getByLabelText('Hours'), '3')
    await userEvent.clear(screen.getByLabelText('Minutes'))
    await userEvent.type(screen.getByLabelText('Minutes'), '15')
    await userEvent.type(screen.getByLabelText('Follow-up message'), 'Still thinking about it?')
    await userEvent.click(screen.getByRole('button', { name: 'Create automation' }))
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(transport.insert).toHaveBeenCalledWith(
      expect.objectContaining({
        trigger: 'dm_keyword',
        followup_text: 'Still thinking about it?',
        followup_delay_minutes: 195,
      }),
    )
  })
})
