import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { answerSchema } from './api/send-answer'
import type { InboxMessage, InboxThread } from './api/types'
import { MessageBubble } from './components/message-bubble'
import { ThreadList } from './components/thread-list'

const message = (fields: Partial<InboxMessage>): InboxMessage => ({
  id: 'm1',
  direction: 'outgoing',
  body: 'Hello there',
  origin: 'reachflow',
  status: 'sent',
  error: null,
  sent_at: '2026-11-26T10:00:00Z',
  created_at: '2026-11-26T10:00:00Z',
  read_on_platform: false,
  ...fields,
})

const thread = (fields: Partial<InboxThread>): InboxThread => ({
  id: 't1',
  account_id: 'a1',
  peer_username: 'keen_lead',
  status: 'open',
  unread_count: 0,
  last_message_at: new Date().toISOString(),
  last_message_preview: 'Tell me more',
  last_message_direction: 'incoming',
  last_incoming_at: null,
  campaign_id: 'c1',
  account: { username: 'our_x', platform: 'twitter', connection: 'browser' },
  campaign_name: 'Founders',
  ...fields,
})

describe('an answer says what became of it', () => {
  it.each([
    ['queued', 'Queued'],
    ['sending', 'Sending…'],
    ['sent', 'Sent'],
    ['uncertain', /Not confirmed yet/],
  ] as const)('%s', (status, text) => {
    render(
      <ul>
        <MessageBubble message={message({ status })} onRetry={() => {}} retrying={false} />
      </ul>,
    )
    expect(screen.getByText(text)).toBeInTheDocument()
  })

  it('a failed answer shows the reason and can be sent again', async () => {
    const onRetry = vi.fn()
    render(
      <ul>
        <MessageBubble
          message={message({ status: 'failed', error: '@our_x has reached today’s limit of 50 messages.' })}
          onRetry={onRetry}
          retrying={false}
        />
      </ul>,
    )
    expect(screen.getByText(/Failed: @our_x has reached today’s limit of 50 messages\./)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('their messages carry no delivery status; one read on the platform says so', () => {
    render(
      <ul>
        <MessageBubble
          message={message({
            direction: 'incoming',
            origin: 'platform',
            status: 'received',
            read_on_platform: true,
          })}
          onRetry={() => {}}
          retrying={false}
        />
      </ul>,
    )
    expect(screen.queryByText('Sent')).toBeNull()
    expect(screen.getByText('Read on the platform')).toBeInTheDocument()
  })
})

describe('the conversation list', () => {
  it('shows unread counts, the account and campaign, and opens a thread from the keyboard', async () => {
    const onSelect = vi.fn()
    render(
      <ThreadList
        threads={[
          thread({ unread_count: 2 }),
          thread({ id: 't2', peer_username: 'done_lead', status: 'handled' }),
        ]}
        selectedId={null}
        onSelect={onSelect}
      />,
    )
    const [first, second] = screen.getAllByTestId('inbox-thread')
    expect(within(first as HTMLElement).getByTestId('thread-unread-count')).toHaveTextContent('2 unread')
    expect(first).toHaveTextContent('via @our_x · X')
    expect(first).toHaveTextContent('Founders')
    expect(second).toHaveTextContent('Handled')
    expect(within(second as HTMLElement).queryByTestId('thread-unread-count')).toBeNull()
    await userEvent.tab()
    await userEvent.keyboard('{Enter}')
    expect(onSelect).toHaveBeenCalledWith('t1')
  })
})

describe('the answer rule', () => {
  it('trims, refuses empty and over-long answers with a reason', () => {
    expect(answerSchema.parse('  Hi  ')).toBe('Hi')
    expect(answerSchema.safeParse('   ').error?.issues[0]?.message).toBe('Write a message first.')
    expect(answerSchema.safeParse('x'.repeat(2001)).error?.issues[0]?.message).toBe(
      'Keep the message under 2,000 characters.',
    )
  })
})
