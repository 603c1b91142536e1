import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { answerSchema } from './api/send-answer'
import type { InboxMessage, InboxThread, ThreadNote, WorkspacePerson } from './api/types'
import { MessageBubble } from './components/message-bubble'
import { ThreadList } from './components/thread-list'
import { timeline } from './components/timeline'

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
  assigned_to: null,
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
        people={[]}
        me={undefined}
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

describe('assignment in the list', () => {
  const people: WorkspacePerson[] = [
    {
      user_id: 'u-me',
      email: 'me@agency.test',
      full_name: 'Mia Owner',
      role: 'owner',
      joined_at: '2026-11-01T09:00:00Z',
    },
    {
      user_id: 'u-ag',
      email: 'sam@agency.test',
      full_name: null,
      role: 'agent',
      joined_at: '2026-11-02T09:00:00Z',
    },
  ]
  it('names the assignee: "You" for the signed-in member, else their name or e-mail', () => {
    render(
      <ThreadList
        threads={[
          thread({ assigned_to: 'u-me' }),
          thread({ id: 't2', assigned_to: 'u-ag' }),
          thread({ id: 't3', assigned_to: 'u-gone' }),
          thread({ id: 't4' }),
        ]}
        people={people}
        me="u-me"
        selectedId={null}
        onSelect={() => {}}
      />,
    )
    const [mine, agents, former, nobody] = screen.getAllByTestId('inbox-thread')
    expect(within(mine as HTMLElement).getByTestId('thread-assignee')).toHaveTextContent('You')
    expect(within(agents as HTMLElement).getByTestId('thread-assignee')).toHaveTextContent('sam@agency.test')
    expect(within(former as HTMLElement).getByTestId('thread-assignee')).toHaveTextContent('A former member')
    expect(within(nobody as HTMLElement).queryByTestId('thread-assignee')).toBeNull()
  })
})

describe('the timeline', () => {
  const note = (id: string, at: string): ThreadNote => ({
    id,
    author_id: 'u1',
    body: id,
    created_at: at,
    updated_at: at,
  })
  it('places each note where it was written among the messages', () => {
    const items = timeline(
      [
        message({ id: 'm1', sent_at: '2026-11-26T10:00:00Z' }),
        message({ id: 'm2', sent_at: '2026-11-26T12:00:00Z' }),
      ],
      [
        note('n-early', '2026-11-26T09:00:00Z'),
        note('n-mid', '2026-11-26T11:00:00Z'),
        note('n-late', '2026-11-26T13:00:00Z'),
      ],
    )
    expect(items.map((i) => (i.kind === 'message' ? i.message.id : i.note.id))).toEqual([
      'n-early',
      'm1',
      'n-mid',
      'm2',
      'n-late',
    ])
  })
})
