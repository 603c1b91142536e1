import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { SocialAccount } from '../api/get-accounts'
import type { AccountToday } from '../api/get-accounts-today'
import { AccountCard } from './account-card'

const account: SocialAccount = {
  id: 'a1',
  username: 'new_founder',
  status: 'active',
  daily_message_limit: 50,
  requests_pending: 0,
  proxy_url: null,
  has_chat_passcode: true,
  last_synced_at: null,
  last_tested_at: null,
  flag_reason: null,
  paused_until: null,
  warmup_phase: 1,
  trust_score: 0.5,
  created_at: '2026-11-26T00:00:00Z',
  updated_at: '2026-11-26T00:00:00Z',
  connection: 'browser',
  platform: { name: 'twitter', display_name: 'Twitter' },
}

function renderCard(today: AccountToday | null) {
  renderApp(
    <AccountCard
      account={account}
      today={today}
      testing={false}
      deleting={false}
      onTest={() => {}}
      onEdit={() => {}}
      onDelete={() => {}}
    />,
  )
  return screen.getByTestId('account-card')
}

describe("the account card's allowance", () => {
  it("shows today's warm-up allowance, not the limit typed in, and that answers count", () => {
    // as account_daily_usage() reads a new account after 9 campaign DMs and 1 inbox answer
    const card = renderCard({
      allowed: 10,
      setBy: 'warmup',
      sent: 10,
      answers: 1,
      ownLimit: 50,
      warmupDay: 3,
    })
    expect(card).toHaveTextContent(/Messages\/Day\s*10/)
    expect(card).not.toHaveTextContent(/Messages\/Day\s*50/)
    expect(card).toHaveTextContent('Sent today10 / 10 allowed')
    expect(card).toHaveTextContent(
      'Warm-up day 3: 10 a day while the account warms up; your limit of 50 applies after.',
    )
    expect(card).toHaveTextContent('Inbox answers count toward it (1 answer today).')
    expect(
      screen.getByRole('progressbar', { name: "@new_founder sent today of today's allowance" }),
    ).toHaveAttribute('aria-valuenow', '100')
  })

  it('says when a recovering account is held below its limit', () => {
    const card = renderCard({
      allowed: 20,
      setBy: 'recovering',
      sent: 4,
      answers: 0,
      ownLimit: 40,
      warmupDay: null,
    })
    expect(card).toHaveTextContent(/Messages\/Day\s*20/)
    expect(card).toHaveTextContent('Reduced to 20 a day while the account recovers from a platform warning.')
    expect(card).toHaveTextContent('Inbox answers count toward it.')
  })
})

describe('what each connection type is shown', () => {
  const noop = () => {}
  const props = { today: null, testing: false, deleting: false, onTest: noop, onEdit: noop, onDelete: noop }

  it('an official X account shows what its X API requests cost this month', () => {
    renderApp(<AccountCard {...props} account={{ ...account, connection: 'official' }} xApiSpentMills={31} />)
    expect(screen.getByTestId('account-card')).toHaveTextContent('X API spent this month$0.04')
  })

  it('a browser account shows no X API cost', () => {
    renderApp(<AccountCard {...props} account={account} xApiSpentMills={31} />)
    expect(screen.getByTestId('account-card')).not.toHaveTextContent('X API spent')
  })

  it('an official Instagram account shows its messages and webhook, not the browser fields', () => {
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()
    renderApp(
      <AccountCard
        {...props}
        account={{
          ...account,
          connection: 'official',
          platform: { name: 'instagram', display_name: 'Instagram' },
        }}
        instagramFacts={{
          lastReceivedAt: minutesAgo(13),
          receivedThisWeek: 4,
          lastWebhookAt: minutesAgo(13),
        }}
      />,
    )
    const card = screen.getByTestId('account-card')
    expect(card).toHaveTextContent('Last message received13 minutes ago')
    expect(card).toHaveTextContent('Received this week4')
    expect(card).toHaveTextContent('WebhookLive')
    for (const field of ['Messages/Day', 'Requests Pending', 'Last Sync', 'Never'])
      expect(card).not.toHaveTextContent(field)
  })
})
