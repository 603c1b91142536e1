import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { InboxAccount, InboxThread } from '../api/types'
import { ThreadView } from './thread-view'

const DAY = 86_400_000

const thread = (fields: Partial<InboxThread>): InboxThread => ({
  id: '00000000-0000-4000-8000-000000000001',
  account_id: 'a1',
  peer_username: 'ana_reads',
  status: 'open',
  unread_count: 0,
  last_message_at: new Date().toISOString(),
  last_message_preview: 'Hi',
  last_message_direction: 'incoming',
  last_incoming_at: new Date().toISOString(),
  campaign_id: null,
  assigned_to: null,
  account: { username: 'lumen.studio', platform: 'instagram', connection: 'official' },
  campaign_name: null,
  ...fields,
})

const account: InboxAccount = {
  id: 'a1',
  username: 'lumen.studio',
  platform: 'instagram',
  status: 'active',
  connection: 'official',
  last_synced_at: null,
  check_requested_at: null,
}

const view = (t: InboxThread) =>
  renderApp(
    <ThreadView
      thread={t}
      account={account}
      people={[]}
      me={undefined}
      onBack={() => {}}
      onHandled={() => {}}
    />,
  )

describe("the answer box of an official Instagram thread follows Instagram's window", () => {
  it('inside the window: the window in words, and the box open', async () => {
    view(thread({}))
    expect(await screen.findByTestId('answer-window')).toHaveTextContent(
      /^Instagram window: a normal answer until/,
    )
    expect(screen.getByLabelText('Your answer to @ana_reads')).toBeEnabled()
  })

  it('after 7 days: the box is disabled and says why', async () => {
    view(thread({ last_incoming_at: new Date(Date.now() - 8 * DAY).toISOString() }))
    expect(await screen.findByTestId('answer-window')).toHaveTextContent(
      /^Instagram window closed: @ana_reads last wrote on .+, more than 7 days ago\./,
    )
    expect(screen.getByLabelText('Your answer to @ana_reads')).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    expect(screen.getByText('Nothing can be sent in this conversation until they write again.')).toBeVisible()
  })

  it('a browser thread has no Instagram window', async () => {
    view(
      thread({
        account: { username: 'our_x', platform: 'twitter', connection: 'browser' },
        last_incoming_at: null,
      }),
    )
    expect(await screen.findByLabelText('Your answer to @ana_reads')).toBeEnabled()
    expect(screen.queryByTestId('answer-window')).toBeNull()
  })
})
